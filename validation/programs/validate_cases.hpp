#pragma once
// Plain C++ view of the validation kernels (validation_kernels.cuh), for host-only files.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace roofkit::validation {

/// One validation kernel and the counts it must produce (0 = not asserted).
struct kernel_case {
  std::string name;
  double ld_requests = 0;
  double ld_sectors = 0;
  double ffma = 0;
  double dfma = 0;
  double hfma = 0;
  double tensor_fp16_flops = 0;
  double dram_bytes = 0; ///< DRAM bytes the kernel must move (read + write)
  double smem_st_wavefronts = 0;
};

/// Every case, in launch order.
std::vector<kernel_case> case_list();

/// Owns the device buffers and launches cases (defined in validate_kernels.cu).
class case_runner {
public:
  case_runner();
  ~case_runner();
  case_runner(const case_runner&) = delete;
  case_runner& operator=(const case_runner&) = delete;
  /// Launches case `i` of case_list() on the default stream.
  void launch(std::size_t i);

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace roofkit::validation

#pragma once
// Reads the resource usage that `nvcc -Xptxas -v` (ptxas --verbose) prints for every kernel.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace roofkit {

/// One kernel (entry function) compiled by ptxas for one architecture.
struct ptxas_kernel {
  std::string mangled_name; ///< as ptxas prints it ("_Z4kernILi64EEvPfPKf")
  std::string name;         ///< demangled when possible ("void kern<64>(float*, float const*)")
  std::string arch;         ///< "sm_90" (a/f suffix kept: "sm_90a")
  int registers = 0;
  int barriers = -1; ///< -1 when the log does not say (older toolkits)
  std::int64_t static_smem = 0;
  std::int64_t stack_frame = 0;
  std::int64_t spill_stores = 0;
  std::int64_t spill_loads = 0;
};

/// Every entry function in a ptxas verbose log, in log order. Device functions (without a
/// "Compiling entry function" line) are skipped. Returns an empty list when none is found.
std::vector<ptxas_kernel> parse_ptxas_log(std::string_view log);

/// The demangled form of an Itanium C++ name, or the name itself.
std::string demangle(const std::string& mangled);

} // namespace roofkit

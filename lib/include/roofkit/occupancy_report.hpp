#pragma once
// Report tables of occupancy-calc (Markdown / CSV / JSON through the printer interface).
#include <iosfwd>
#include <string>
#include <vector>

#include "roofkit/occupancy.hpp"
#include "roofkit/occupancy_ptxas.hpp"
#include "roofkit/printer.hpp"

namespace roofkit {

/// The GPU a report is for: an architecture, and the product when known.
struct occupancy_target {
  const arch_spec *arch = nullptr;
  std::string gpu_name; ///< "NVIDIA H100 80GB HBM3"; empty for --arch
  int sm_count = 0;     ///< 0 when unknown
  std::string origin;   ///< "--arch sm_90", "--gpu (built-in table)", "--device 0 (live)"
};

/// A table, and whether it is one record (one row), shown as Field | Value in Markdown.
struct report_section {
  table data;
  bool record = false;
};

/// Prints the sections in `format` (Markdown transposes records; CSV and JSON keep the keys).
void print_report(const std::vector<report_section> &sections, output_format format,
                  std::ostream &out);

/// The default report: "target", "launch", "occupancy" (records) and "limits" (one row per
/// resource, limiters highlighted), with the notes (opt-in assumed, runtime defaults).
std::vector<report_section> occupancy_report(const occupancy_target &target,
                                             const launch_params &launch,
                                             const occupancy_result &result);

/// "cliffs": one row per varied parameter.
std::vector<report_section> cliffs_report(const occupancy_target &target,
                                          const launch_params &launch);

/// Options of the suggestions.
struct suggest_options {
  double target_occupancy = 0;      ///< 0 = the occupancy reachable without a register limit
  std::int64_t smem_per_thread = 0; ///< dynamic shared memory growing with the block size
  int blocks = 0;                   ///< 0 = every block count up to the non-smem limit
};

/// "block_size", "registers", "smem_for_blocks", "carveouts" and (CC >= 9) "clusters".
std::vector<report_section> suggest_report(const occupancy_target &target,
                                           const launch_params &launch,
                                           const suggest_options &options);

/// One table per sweep: "sweep_block_size", "sweep_registers", "sweep_shared_memory".
std::vector<report_section> sweep_report(const std::vector<occupancy_sweep> &sweeps);

/// "kernels" (occupancy of each kernel at `base`'s block size, dynamic shared memory and
/// carveout; registers, static shared memory and barriers from the log) and "cliffs" (per
/// kernel). The kernel's own architecture is used unless `target.arch` is set. Throws
/// usage_error when a kernel's architecture is unknown or its launch is invalid there.
std::vector<report_section> ptxas_report(const std::vector<ptxas_kernel> &kernels,
                                         const occupancy_target &target, const launch_params &base);

} // namespace roofkit

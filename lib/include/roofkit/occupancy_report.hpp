#pragma once
// Report tables of occupancy results (Markdown / CSV / JSON through the printer interface).
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "roofkit/occupancy.hpp"
#include "roofkit/occupancy_ptxas.hpp"
#include "roofkit/printer.hpp"

namespace roofkit {

/// The GPU a report is for: an architecture, and the product when known.
struct occupancy_target {
  const arch_spec* arch = nullptr;
  std::string gpu_name; ///< "NVIDIA H100 80GB HBM3"; empty when only the architecture is known
  int sm_count = 0;     ///< 0 when unknown
  std::string origin;   ///< where the target came from, as the caller words it (e.g. its flag)
  /// How to give the SM count where it is unknown (a tool names its flags), shown beside bounds
  /// that need it; "" says only that they need it.
  std::string sm_count_hint;
};

/// The schema of the occupancy JSON documents (bump the major version on any incompatible
/// change): `{"schema": ..., "<table id>": {record} or [rows]}`.
inline constexpr const char* occupancy_schema = "roofkit.occupancy/2";

/// A table, and whether it is one record (one row), shown as Field | Value in Markdown.
struct report_section {
  table data;
  bool record = false;
};

/// Prints the sections in `format`. Markdown transposes records. JSON is one object with the
/// schema and one member per table: an object for a record, a list of row objects otherwise.
/// CSV prints one table only: the one named `only` (empty: the first), since several tables
/// one after another are no CSV. A non-empty `only` restricts Markdown and JSON too. Throws
/// usage_error naming the valid ids when `only` names no section.
void print_report(const std::vector<report_section>& sections, output_format format,
                  std::ostream& out, const std::string& only = {});

/// The ids of the sections, in order ("target, launch, occupancy, limits").
std::string section_ids(const std::vector<report_section>& sections);

/// A cliff near a launch: the nearest value of one parameter, in one direction, at which the
/// number of resident blocks changes.
struct cliff_line {
  occupancy_variable variable = occupancy_variable::registers;
  std::int64_t current = 0;  ///< the launch's value
  std::int64_t value = 0;    ///< the value at the cliff
  std::int64_t distance = 0; ///< value - current
  double from = 0, to = 0;   ///< occupancy at the launch and at the cliff
  std::string text;          ///< "+2 registers (34/thread): 100% -> 75%"
  std::string sweep;         ///< the sweep that measures it: "regs", "block" or "smem"
  std::string range;         ///< the sweep's range across both values: "24:40:1" (a:b:step)
};

/// The name of a sweep of `v`: "regs", "block", "smem".
std::string_view sweep_name(occupancy_variable v);

/// How to measure a cliff (supplied by the caller, e.g. a command line): kernel name (may be
/// empty) and the cliff.
using cliff_command = std::function<std::string(const std::string& kernel, const cliff_line&)>;

/// The answer first, in a few lines: occupancy and warps, what limits it, then each nearby cliff
/// ("+2 registers (34/thread): 100% -> 75%") followed by `command`'s text when given.
std::string occupancy_summary(const occupancy_target& target, const launch_params& launch,
                              const occupancy_result& result, const std::string& kernel = {},
                              const cliff_command& command = {});

/// occupancy_summary for every kernel of a ptxas log (as ptxas_report places them), one block of
/// lines per kernel.
std::string ptxas_summary(const std::vector<ptxas_kernel>& kernels, const occupancy_target& target,
                          const launch_params& base, const cliff_command& command = {});

/// A warning when `target.arch` is set and the log compiled kernels for another architecture
/// (which one the numbers are for, and what to do); empty when they agree or no target is set.
std::string ptxas_arch_mismatch(const std::vector<ptxas_kernel>& kernels,
                                const occupancy_target& target);

/// The nearest cliff below and above the launch for registers (when known), shared memory and
/// block size, in that order.
std::vector<cliff_line> nearby_cliffs(const arch_spec& arch, const launch_params& launch);

/// The default report: "target", "launch", "occupancy" (records) and "limits" (one row per
/// resource, limiters highlighted), with the notes (opt-in assumed, runtime defaults).
std::vector<report_section> occupancy_report(const occupancy_target& target,
                                             const launch_params& launch,
                                             const occupancy_result& result);

/// "cliffs": one row per varied parameter.
std::vector<report_section> cliffs_report(const occupancy_target& target,
                                          const launch_params& launch);

/// Options of the suggestions.
struct suggest_options {
  double target_occupancy = 0;      ///< 0 = the occupancy reachable without a register limit
  std::int64_t smem_per_thread = 0; ///< dynamic shared memory growing with the block size
  int blocks = 0;                   ///< 0 = every block count up to the non-smem limit
};

/// "block_size", "registers", "smem_for_blocks", "carveouts" and (CC >= 9) "clusters".
std::vector<report_section> suggest_report(const occupancy_target& target,
                                           const launch_params& launch,
                                           const suggest_options& options);

/// One table per sweep: "sweep_block_size", "sweep_registers", "sweep_shared_memory".
std::vector<report_section> sweep_report(const std::vector<occupancy_sweep>& sweeps);

/// "kernels" (occupancy of each kernel at `base`'s block size, dynamic shared memory and
/// carveout; registers, static shared memory and barriers from the log) and "cliffs" (per
/// kernel). The kernel's own architecture is used unless `target.arch` is set. Throws
/// usage_error when a kernel's architecture is unknown or its launch is invalid there.
std::vector<report_section> ptxas_report(const std::vector<ptxas_kernel>& kernels,
                                         const occupancy_target& target, const launch_params& base);

} // namespace roofkit

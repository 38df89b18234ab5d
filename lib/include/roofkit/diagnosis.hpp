#pragma once
// roofkit/diagnosis.hpp: why a kernel is where it is on the roofline, and what to try first.

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "roofkit/roofline.hpp"
#include "roofkit/run.hpp"

namespace roofkit {

/// One piece of evidence behind a diagnosis (kind: a value of the limiter vocabulary).
struct diagnosis_finding {
  std::string kind;                       ///< "uncoalesced_access", "occupancy_registers", ...
  double gain = 0;                        ///< share of the kernel's time it could save, 0..1
  std::string text;                       ///< one sentence with the figures
  std::map<std::string, double> evidence; ///< numbers behind the text (JSON "evidence")
  std::map<std::string, std::string> evidence_text; ///< words behind the text ("limiter")
};

/// The nearest occupancy cliff of one launch parameter: where the resident blocks change.
struct diagnosis_cliff {
  std::string variable;  ///< "registers", "shared_memory", "block_size"
  long long current = 0; ///< the launch's value
  long long value = 0;   ///< the value at the cliff
  double occupancy = 0;  ///< the theoretical occupancy there
  std::string text;      ///< "at 32 registers or fewer: 4 blocks, 100%"
  /// The launch at the cliff, for an occupancy calculator to show it (a tool formats the
  /// command from these).
  std::string arch;           ///< "sm_90"
  int threads = 0;            ///< per block
  int registers = 0;          ///< per thread (0 = unknown)
  long long static_smem = 0;  ///< bytes per block
  long long dynamic_smem = 0; ///< bytes per block
};

/// Occupancy of the launch as the occupancy engine computes it.
struct diagnosis_occupancy {
  double theoretical = 0;
  std::optional<double> achieved;
  std::string limiter;                  ///< "registers", "shared_memory", "blocks", "warps"
  int active_blocks = 0;                ///< per SM
  int registers = 0;                    ///< per thread (0 = unknown)
  int max_warps_per_sm = 0;             ///< the architecture's warp slots per SM
  std::optional<diagnosis_cliff> cliff; ///< the nearest cliff in either direction
};

/// A kernel's diagnosis: one verdict, the main limiter, ranked findings with their evidence.
struct kernel_diagnosis {
  std::string limiter;     ///< vocabulary of docs/diagnosis.md ("dram_bandwidth", "unknown")
  std::string verdict;     ///< one sentence: where it is and why
  std::string try_first;   ///< one sentence: what to try first (JSON "try")
  std::string bound_roof;  ///< "dram", "l2", "l1", "fp32", "tensor_fp16", ...
  double pct_of_roof = 0;  ///< at the kernel's own clock
  double sm_clock_mhz = 0; ///< the clock its roofs were taken at (0 = the run's)
  std::optional<diagnosis_occupancy> occupancy;
  std::vector<diagnosis_finding> findings; ///< most time to gain first
};

/// Diagnoses one kernel of a run from its placement, its counters, the occupancy engine for its
/// launch and the architecture table. nullopt for a kernel that was not placed (failed, no
/// bytes, a transfer).
std::optional<kernel_diagnosis> diagnose_kernel(const run& r, std::size_t index,
                                                const kernel_placement& placement);

/// Diagnoses every kernel of the run that is worth it: every kernel of a bench run, and in an
/// application run the kernels holding at least `min_time_share` of the GPU time. Same order as
/// r.kernels; nullopt where none was made.
std::vector<std::optional<kernel_diagnosis>>
diagnose_run(const run& r, const std::vector<kernel_placement>& placements,
             double min_time_share = 0.01);

/// The share of the application's GPU time a kernel holds (its profile counters), or nullopt for
/// a kernel outside an application run.
std::optional<double> app_time_share(const kernel_result& k);

/// Approximate loaded DRAM latency of an architecture, ns, with where the figure comes from.
struct memory_latency {
  double dram_ns = 0;
  std::string source;
};
memory_latency dram_latency(int cc_major, int cc_minor);

} // namespace roofkit

namespace roofkit {

/// The kernels a pattern names: those whose label (kernel_labels) equals it, else those whose
/// label or full name matches it as an ECMAScript regex. usage_error for an invalid regex or
/// when none matches (the message lists a few labels).
std::vector<std::size_t> find_kernels(const run& r, const std::string& pattern);

/// Formats the command that shows an occupancy cliff (a tool supplies it); "" for none.
using cliff_command_format = std::function<std::string(const diagnosis_cliff&)>;

/// One kernel's diagnosis as text: the label and full names, the verdict, what to try, the
/// occupancy with its cliff (and the command `command` formats for it) and the findings with
/// their evidence.
std::string explain_kernel(const run& r, std::size_t index, const cliff_command_format& command,
                           std::size_t width = 120);

/// The Markdown diagnosis section of a run: one entry per diagnosed kernel (label, limiter,
/// verdict, what to try), lines of at most `width` characters; "" when none was diagnosed.
std::string diagnosis_section(const run& r, std::size_t width = 120);

} // namespace roofkit

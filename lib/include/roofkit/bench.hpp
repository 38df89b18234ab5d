#pragma once
// roofkit/bench.hpp: the bench pipeline and the evaluation of claims.

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "roofkit/ceilings.hpp"
#include "roofkit/printer.hpp"
#include "roofkit/profiler.hpp"
#include "roofkit/registry.hpp"
#include "roofkit/roofline.hpp"
#include "roofkit/run.hpp"
#include "roofkit/timing.hpp"

// The bench: verifies, times, profiles and places registered kernels on the roofline, and
// measures registered claims against a run.
namespace roofkit {

/// Where the bench stands, for a progress bar.
struct bench_progress {
  std::size_t index = 0; ///< kernels finished so far
  std::size_t total = 0;
  std::string kernel; ///< the kernel being worked on
  std::string stage;  ///< "verify", "time", "counters"
};

/// What to run and how.
struct bench_options {
  std::string kernel_regex;         ///< ECMAScript regex on kernel names; "" = all
  std::optional<problem_size> size; ///< one size for every selected kernel; default: each kernel's
  int repetitions = 20;             ///< timed repetitions (median reported)
  int warmup = 3;                   ///< untimed launches first
  bool flush_l2 = true; ///< cold timing: write back and invalidate the L2 before every launch
  /// Cache control of the profiled passes (see profiler_options::cache).
  roofkit::cache_control cache = roofkit::cache_control::all;
  /// "none": each kernel's roofs at the SM clock it ran at (from its counters); "base": lock the
  /// SM clock to the base clock for the run (needs the right to set clocks; refused otherwise).
  roofkit::clock_control clock = roofkit::clock_control::none;
  bool counters = true;         ///< collect CUPTI counters (false: analytical placement, asked for)
  bool measure_ceilings = true; ///< add measured roofs (ceilings.hpp, quick run)
  /// Measured roofs from a machine file (load_machine_ceilings): used instead of measuring.
  std::vector<ceiling> machine_ceilings;
  int device = 0;
  std::string command; ///< the command line, recorded in the run's context
  std::function<void(const bench_progress&)> progress; ///< called as work advances
  std::function<void(const std::string&)> warn;        ///< diagnostics (default: stderr)
};

/// The bench's answer: the run (every selected kernel, failed ones marked) and what happened.
struct bench_outcome {
  run result;
  std::size_t failed = 0;     ///< kernels whose verification failed or that errored
  bool counters_used = false; ///< false: no counters (timing only, or analytical if asked)
  std::string counters_note;  ///< why counters were not used, with the hint
  /// The exit code counters failed with (3: no permission, unsupported device, another
  /// profiler); 0 when counters were used or turned off on purpose.
  int counters_exit = 0;
  int passes = 0;             ///< replay passes per kernel (roofline + detail counters, one set)
  double profile_seconds = 0; ///< wall time spent in counter collection
  std::string clock_note;     ///< what clock control did
  ceilings_result measured;   ///< the ceiling microbenchmarks, when run
};

/// Runs the bench on the GPU. Throws no_device_error without a GPU and usage_error for a bad
/// repetition count, regex or size; a kernel that fails its check is reported in the run, not
/// thrown.
bench_outcome run_bench(const bench_options& options);

/// The summary table `bench` prints (id "bench"): per kernel the status, median time, effective
/// DRAM bandwidth (minimal bytes / time), GFLOP/s, measured DRAM bytes over the minimal bytes,
/// global sectors per request, bound, % of roof and occupancy.
table bench_table(const run& r, const std::vector<kernel_placement>& placements);

/// Makes a kernel's counter FLOPs placeable: counter FLOPs in precisions the algorithm does not
/// use (`declared`, e.g. an HFMA2 that ptxas emits as a register move) move to the raw counters
/// as roofkit__unplaced_flops_<precision>; when no FP instruction was counted for an algorithm
/// that has FLOPs (atomic adds execute as RED), the declared FLOPs are placed. Both are noted in
/// the kernel's message.
void reconcile_flops(kernel_result& k, const std::map<precision, double>& declared);

/// Raw counter names the bench collects besides the roofline set (coalescing and claim counters).
std::vector<std::string> bench_detail_metrics();

/// Whether a kernel's time is dominated by launch overhead: its timed median per launch is
/// more than 1.5x its own GPU duration from the counters or, without counters, below 5 us.
bool overhead_dominated(const kernel_result& k);

/// One seed claim measured against a run.
struct claim_outcome {
  const seed_claim* claim = nullptr;
  std::optional<double> value;          ///< our figure in the claim metric's unit
  std::optional<double> subject_value;  ///< for ratios: the subject's own number
  std::optional<double> baseline_value; ///< for ratios: the baseline's own number
  std::string verdict;                  ///< "holds", "does not hold", "not measured"
  std::string evidence;                 ///< what the counters show (bytes, sectors, time)
};

/// Measures every registered claim against a run (kernels missing or failed give "not
/// measured").
std::vector<claim_outcome> evaluate_claims(const run& r);

/// The claims as a table (id "claims").
table claims_table(const std::vector<claim_outcome>& outcomes);

/// A claim metric's value as the claims table shows it ("2.50x", "91%", "670 GB/s").
std::string format_claim_value(claim_metric m, double value);

/// How a claim metric's figure is computed, in one sentence without the final period.
std::string claim_metric_definition(claim_metric m);

/// Reads a claim-notes file: a JSON object {"claim-id": "text", ...}; usage_error when it is
/// malformed or names an unknown claim.
std::map<std::string, std::string> load_claim_notes(const std::string& path);

} // namespace roofkit

#pragma once
// The CUPTI range profiler (CUDA 12.6+ API): per-kernel or per-range metric values on a GPU, and
// the roofline quantities derived from them.
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "roofkit/metrics.hpp"
#include "roofkit/run.hpp"

namespace roofkit {

/// Metric values of one range: a kernel launch (auto range) or a user range.
struct range_values {
  std::string name;                     ///< "0", "1", ... per launch, or the user range name
  std::map<std::string, double> values; ///< by CUPTI metric name (as in resolved_set::names())
};

/// The roofline quantities of one range, derived from a resolved set's values.
struct roofline_counts {
  std::map<precision, double> flops;    ///< FLOPs (ops for INT8) per precision, non-zero only
  std::map<memory_level, double> bytes; ///< bytes per level (DRAM = read + write)
  double dram_read_bytes = 0;
  double dram_write_bytes = 0;
  double time_s = 0; ///< gpu__time_duration (one replay pass)
  double sm_cycles = 0;
  double sm_clock_hz = 0;
  double dram_clock_hz = 0;
  std::optional<double> achieved_occupancy; ///< 0..1
  std::vector<std::string> missing;         ///< roles the set could not provide ("dram_write", ...)
};

/// Derives roofline_counts from the values of a range (pure; no GPU).
roofline_counts derive_roofline_counts(const resolved_set& set,
                                       const std::map<std::string, double>& values);

/// Fills a kernel_result from counters: flops, bytes, occupancy_achieved, the clocks the kernel
/// ran at, its GPU duration (gpu_time_s), counters (raw values by metric name) and source =
/// counters. Leaves `time` alone: times come from the timing harness.
void apply_counts(const roofline_counts& counts, const std::map<std::string, double>& raw,
                  kernel_result& k);

/// Whether counters can be read on a device, checked without throwing.
struct profiler_status {
  bool ok = false;
  std::string chip;    ///< "GH100" when a device was found
  std::string message; ///< why not, in one line
  std::string hint;    ///< what the user can do
  int exit = 0;        ///< the exit code a tool should use when it needs counters
};
/// Probes `device` (no GPU, unsupported device, no permission, another profiler attached).
profiler_status check_profiler(int device = 0) noexcept;

/// The CUPTI chip name of a device ("GH100"); throws no_device_error without a GPU. Checks for
/// a device first (cuptiDeviceGetChipName crashes without a driver).
std::string device_chip_name(int device = 0);

/// What each profiled pass starts from (as Nsight Compute's --cache-control).
enum class cache_control {
  all,  ///< write back and invalidate the L2 before every pass: no data of ours, no dirty line
  none, ///< leave the caches as the previous work left them
};
/// "all" / "none".
std::string to_string(cache_control c);
/// Parses "all" / "none"; throws usage_error naming the value and the valid choices.
cache_control parse_cache_control(const std::string& text);

/// Options of a profiler session.
struct profiler_options {
  /// Applied by profile_launches() and profile_range() before every pass. profile() replays
  /// inside CUPTI (kernel replay) and can only flush before its first pass.
  roofkit::cache_control cache = roofkit::cache_control::all;
  /// Kernel launches one profile() call is sized for; one more is kept, and a call that fills
  /// that too is warned about (launches beyond it are not profiled).
  std::size_t max_ranges = 64;
  /// Receives warnings (dropped metrics, dropped ranges); default: stderr, "roofkit: warning: ".
  std::function<void(const std::string&)> warn;
};

/// One piece of work of a profiled batch and the number of kernels it launches.
struct batch_work {
  std::function<void()> work;
  std::size_t launches = 1;
};

/// Where a session's wall time went (profile_launches calls), for overhead reports.
struct profiler_stats {
  int calls = 0;       ///< profile_launches() and profile_batch() calls
  int passes = 0;      ///< replay passes over all calls
  double setup_s = 0;  ///< enabling the profiler, counter-data image, configuration
  double passes_s = 0; ///< the passes: preparation, cache control, the work, start/stop
  double decode_s = 0; ///< decoding and evaluating the counter data
  // Where the passes' time goes (sums over all passes):
  double before_s = 0; ///< the caller's per-pass preparation (e.g. restoring memory)
  double start_s = 0;  ///< starting a pass (cuptiRangeProfilerStart)
  double body_s = 0;   ///< cache control and the work, up to its synchronisation
  double stop_s = 0;   ///< ending a pass (cuptiRangeProfilerStop)
};

/// A counter session on one device for one metric set. Usage (bench runner):
///   roofkit::profiler_session s(0, "roofline");
///   s.passes();                                   // replay passes per kernel, known up front
///   auto ranges = s.profile([&] { launch(); });   // one entry per kernel launched
///   auto counts = roofkit::derive_roofline_counts(s.metrics(), ranges[0].values);
///   roofkit::apply_counts(counts, ranges[0].values, result);
/// Throws roofkit::error (exit code 3) when there is no GPU, the device is unsupported, counters
/// need admin rights, or another profiler holds the GPU; time kernels with the timing harness
/// regardless.
class profiler_session {
public:
  /// A session collecting a built-in set ("roofline", "tensor", "coalescing").
  profiler_session(int device, const std::string& set, profiler_options options = {});
  /// A session collecting any set definition (see custom_metric_set()).
  profiler_session(int device, const metric_set_def& set, profiler_options options = {});
  ~profiler_session();
  profiler_session(const profiler_session&) = delete;
  profiler_session& operator=(const profiler_session&) = delete;

  /// Replay passes per kernel (auto range) or per range (user range).
  int passes() const;
  /// The set as resolved on this device's chip.
  const resolved_set& metrics() const;
  /// The chip ("GH100").
  const std::string& chip() const;
  /// Cumulative timings of profile_launches() calls.
  const profiler_stats& stats() const;

  /// Auto range + kernel replay: runs `work` once; CUPTI replays each kernel it launches
  /// passes() times, restoring device memory in between, and synchronises after each kernel.
  /// Returns one entry per kernel launch, in launch order.
  std::vector<range_values> profile(const std::function<void()>& work);

  /// Auto range + user replay: calls `work` once per pass (passes() calls in all); every kernel
  /// it launches is its own range, as in profile(), but each pass starts after `before_pass`
  /// (e.g. restoring inputs) and, with cache_control::all, a write-back-and-invalidate of the
  /// L2. All metrics of a launch thus come from passes that start from the same state. `work`
  /// must launch the same kernels in the same order on every call.
  std::vector<range_values> profile_launches(const std::function<void()>& work,
                                             const std::function<void()>& before_pass = {});

  /// profile_launches() for several works at once: each pass runs every work in turn, each
  /// after its own cache control, so each work's counters are as if profiled alone while the
  /// profiler's per-pass cost is paid once for the batch. Returns, per work, one entry per
  /// kernel launch; throws when a work launches another number of kernels than it declares.
  std::vector<std::vector<range_values>>
  profile_batch(const std::vector<batch_work>& works,
                const std::function<void()>& before_pass = {});

  /// User range + user replay: calls `work` passes() times inside one range named `name` and
  /// returns the totals of everything it launched. `work` must give the same GPU work on every
  /// call (restore its own inputs if it overwrites them). `before_pass`, if given, runs before
  /// each pass outside the range (e.g. an L2 flush).
  range_values profile_range(const std::string& name, const std::function<void()>& work,
                             const std::function<void()>& before_pass = {});

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace roofkit

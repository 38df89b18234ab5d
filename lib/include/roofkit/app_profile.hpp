#pragma once
// roofkit/app_profile.hpp: profiling another application: options, launch selection, its process.

#include <array>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "roofkit/printer.hpp"
#include "roofkit/profiler.hpp"
#include "roofkit/roofline.hpp"
#include "roofkit/run.hpp"
#include "roofkit/timing.hpp"

// ---- app profile ----
// Profiling another process's kernels: the options shared by the launcher and the injected
// library (passed through the environment), which launches are selected, the record log the
// injected library writes (one JSON object per line, flushed as it goes), and the run built from
// it. CPU only: the injected library (lib/inject) holds the CUPTI side.
namespace roofkit {

/// Largest replay batch (app_profile_options::replay_batch).
inline constexpr std::int64_t max_replay_batch = 1024;

/// Whether launches are selectable from the application's start (as Nsight Compute's
/// --profile-from-start).
enum class profile_start {
  on,  ///< from the start
  off, ///< only between the application's cudaProfilerStart and cudaProfilerStop
};
/// "on" / "off".
std::string to_string(profile_start p);
/// Parses "on" / "off"; throws usage_error "profile from start 'x' is not valid (valid: on, off)".
profile_start parse_profile_start(std::string_view text);
/// `n` when it is a valid replay batch (1 to max_replay_batch); throws usage_error
/// "replay batch N is out of range (valid: 1 to 256)".
std::int64_t parse_replay_batch(std::int64_t n);

/// Launches of each launch shape (kernel, grid, block, dynamic shared memory) profiled with
/// counters; the later ones of the shape are timed only, their work inferred from the shape's.
struct sample_limit {
  std::int64_t per_shape = 1; ///< the first N launches of every shape; -1: every launch
  bool all() const { return per_shape < 0; }
  bool operator==(const sample_limit& o) const { return per_shape == o.per_shape; }
};
/// Largest per-shape sample (sample_limit::per_shape).
inline constexpr std::int64_t max_sample_per_shape = 1000000;
/// "all" or the number.
std::string to_string(sample_limit s);
/// Parses "all" or 1 to max_sample_per_shape; throws usage_error
/// "sample 'x' is not valid (valid: 1 to 1000000, or all)".
sample_limit parse_sample_limit(std::string_view text);

/// Which threads' launches an open NVTX range selects.
enum class nvtx_scope {
  process, ///< a range open on any thread selects the launches of every thread of the process
  thread,  ///< only the launches of the thread that pushed it (Nsight Compute's rule)
};
/// "process" / "thread".
std::string to_string(nvtx_scope s);
/// Parses "process" / "thread"; throws usage_error naming the bad value and the valid ones.
nvtx_scope parse_nvtx_scope(std::string_view text);

/// What to profile in the application and how.
struct app_profile_options {
  std::string kernel_regex;       ///< ECMAScript regex searched in the demangled name; "" = all
  std::string nvtx_range;         ///< only launches inside an NVTX push/pop range of this name
  std::int64_t launch_skip = 0;   ///< selected launches to let pass before profiling starts
  std::int64_t launch_count = -1; ///< selected launches to profile at most; -1 = no limit
  roofkit::cache_control cache = roofkit::cache_control::all;  ///< flushed L2 before every pass
  roofkit::clock_control clock = roofkit::clock_control::none; ///< see docs/profile.md
  /// on: launches are selectable from the start; off: only between the application's
  /// cudaProfilerStart and cudaProfilerStop (cuProfilerStart/Stop), as Nsight Compute's option.
  profile_start from_start = profile_start::on;
  /// Consecutive selected launches replayed together, in one set of passes, after the
  /// application's own launches ran (1: each launch replayed alone in its callback, before the
  /// application's launch runs). See docs/profile.md.
  std::int64_t replay_batch = 128;
  sample_limit sample; ///< launches of each shape profiled; see docs/profile.md
  nvtx_scope nvtx_rule = nvtx_scope::process; ///< which threads a range of nvtx_range selects
  bool progress = false; ///< the injected library prints launches seen/profiled/inferred on stderr
  bool nvtx_groups =
      false;               ///< follow NVTX ranges to group launches by range (also with nvtx_range)
  std::string record_path; ///< where the injected library writes its records
};

/// Checks the options; throws usage_error naming the bad value and the valid choices.
void validate(const app_profile_options& options);

/// The environment variables that carry the options to the injected library.
std::map<std::string, std::string> to_environment(const app_profile_options& options);
/// Reads the options back from the environment (lookup returns nullptr for an unset name).
/// Throws usage_error for a malformed value.
app_profile_options options_from_environment(const char* (*lookup)(const char*));

/// Decides launch by launch whether to profile: name regex, NVTX range, then skip and count over
/// the launches that pass both filters. Not thread-safe (the caller holds a lock).
class launch_selector {
public:
  explicit launch_selector(const app_profile_options& options);
  /// Whether this launch is profiled; `nvtx_stack` holds the enclosing ranges of the calling
  /// thread, outermost first.
  bool select(const std::string& kernel_name, const std::vector<std::string>& nvtx_stack);
  /// The same, where the caller has decided whether the launch is inside the NVTX range asked
  /// for (ignored without one): nvtx_range_tracker::inside() under the options' nvtx_scope.
  bool select_inside(const std::string& kernel_name, bool inside_nvtx_range);
  /// Launches that passed the filters so far (profiled or skipped by launch_skip).
  std::int64_t matched() const { return matched_; }
  /// Launches selected so far.
  std::int64_t selected() const { return selected_; }
  /// True once launch_count launches were selected: no later launch is profiled.
  bool exhausted() const;
  /// The application called cudaProfilerStart (true) or cudaProfilerStop (false). With
  /// from_start off, launches are selectable only while started.
  void set_started(bool started) { started_ = started; }

private:
  bool name_matches(const std::string& kernel_name);

  app_profile_options options_;
  std::optional<std::regex> regex_;
  std::map<std::string, bool> regex_matches_; ///< per kernel name: regexes are slow per launch
  std::int64_t matched_ = 0;
  std::int64_t selected_ = 0;
  bool started_ = false;
};

/// Follows the NVTX push/pop ranges of every thread of a process, to decide whether a launch is
/// inside a range under either nvtx_scope and to name the ranges that enclose it. Thread-safe.
class nvtx_range_tracker {
public:
  /// `thread` pushed a range named `name`.
  void push(std::uint64_t thread, const std::string& name);
  /// `thread` popped its innermost range (nothing when it has none open).
  void pop(std::uint64_t thread);
  /// Whether a launch of `thread` is inside a range named `name`: under thread, one of the
  /// thread's own open ranges; under process, one open on any thread.
  bool inside(std::uint64_t thread, const std::string& name, nvtx_scope scope) const;
  /// The ranges enclosing a launch of `thread`, outermost first: its own; under process, when it
  /// has none open, those of the thread that most recently pushed a range still open.
  std::vector<std::string> path(std::uint64_t thread, nvtx_scope scope) const;

private:
  mutable std::mutex mutex_;
  std::map<std::uint64_t, std::vector<std::string>> stacks_;
  std::map<std::string, int> open_;    ///< ranges open on any thread, by name
  std::vector<std::uint64_t> pushers_; ///< threads by their latest push, latest last
};

/// Launch shapes of a process, numbered from 0 as they first appear, and which launches of a
/// shape are profiled (the first sample_limit::per_shape) or inferred. Memory grows with the
/// distinct shapes only. Not thread-safe.
class shape_sampler {
public:
  explicit shape_sampler(sample_limit limit) : limit_(limit) {}
  /// The shape of a launch of kernel `kernel` (the caller's number for its function).
  int shape_of(int kernel, const std::array<std::uint32_t, 3>& grid,
               const std::array<std::uint32_t, 3>& block, std::uint32_t dynamic_smem);
  /// A selected launch of `shape`: true when it is profiled (measured), false when inferred.
  bool measure(int shape);
  /// What measure(shape) would answer now, without counting the launch.
  bool would_measure(int shape) const;
  /// The kernel number, grid, block and dynamic shared memory of a shape.
  struct key {
    int kernel;
    std::array<std::uint32_t, 3> grid;
    std::array<std::uint32_t, 3> block;
    std::uint32_t dynamic_smem;
    bool operator<(const key& o) const {
      return std::tie(kernel, grid, block, dynamic_smem) <
             std::tie(o.kernel, o.grid, o.block, o.dynamic_smem);
    }
  };
  const std::vector<key>& shapes() const { return keys_; }
  std::int64_t measured(int shape) const { return counts_.at(shape).first; }
  std::int64_t inferred(int shape) const { return counts_.at(shape).second; }
  std::int64_t measured_total() const { return measured_total_; }
  std::int64_t inferred_total() const { return inferred_total_; }

private:
  sample_limit limit_;
  std::map<key, int> ids_;
  std::vector<key> keys_;
  std::vector<std::pair<std::int64_t, std::int64_t>> counts_; ///< measured, inferred
  std::int64_t measured_total_ = 0;
  std::int64_t inferred_total_ = 0;
};

/// Launch times in memory that stays flat however many launches: count, total, min and max
/// exact; the median from every time up to `kept` launches, from an even reservoir sample after.
class launch_time_stats {
public:
  void add(double seconds);
  /// Adds another's launches (the median then comes from both samples).
  void merge(const launch_time_stats& other);
  /// Stands for `launches` launches of which count() were timed: the total grows with the mean
  /// kept; minimum, maximum and median stay the timed ones'. No change when none were timed or
  /// `launches` is not more.
  void extrapolate_to(std::int64_t launches);
  std::int64_t count() const { return count_; }
  double total_s() const { return total_; }
  double min_s() const { return count_ ? min_ : 0; }
  double max_s() const { return count_ ? max_ : 0; }
  double median_s() const;
  static constexpr std::size_t kept = 256;

private:
  std::int64_t count_ = 0;
  double total_ = 0;
  double min_ = 0;
  double max_ = 0;
  std::vector<float> sample_;
  std::uint64_t rng_ = 0x9e3779b97f4a7c15ull;
};

/// One profiled launch as the injected library records it.
struct launch_record {
  std::int64_t index = 0; ///< launch ordinal in the process (all kernels, from 0)
  std::int64_t pid = 0;   ///< the process that launched it (0 in logs that predate the field)
  std::string mangled_name;
  kernel_result kernel; ///< name (demangled), launch, flops, bytes, counters, clocks, gpu time
  std::uint64_t stream = 0;
  std::uint64_t thread = 0;
  double profile_overhead_s = 0; ///< wall time spent profiling this launch
  int shape = -1; ///< its launch shape (shape_record::id); -1 in logs that predate sampling
  int range = -1; ///< its enclosing NVTX ranges (range_record::id); -1: none
  /// Measured with bench_per_launch_metric_set(): its shape's first launches give what that set
  /// leaves out (shape_detail_keys()).
  bool per_launch_set = false;
};

/// Launches of each shape measured with the full metric set before later ones may carry the
/// per-launch set (with a sample larger than the default, or every launch). One: what the
/// per-launch set leaves out describes the shape's code, and with two, the shapes that a training
/// step launches once made the next step switch sets back and forth (9 switches of 0.3 s over ten
/// steps against 5: validation/data/per-launch-set-h200.json).
inline constexpr int full_set_launches_per_shape = 1;

/// A launch shape of one process: kernel, grid, block, dynamic shared memory.
struct shape_record {
  std::int64_t pid = 0;
  int id = 0;
  std::string name; ///< demangled
  std::string mangled_name;
  std::array<std::uint32_t, 3> grid{1, 1, 1};
  std::array<std::uint32_t, 3> block{1, 1, 1};
  std::uint32_t dynamic_smem = 0;
};

/// The NVTX ranges that enclosed launches of one process, outermost first.
struct range_record {
  std::int64_t pid = 0;
  int id = 0;
  std::vector<std::string> path;
};

/// The launches of one shape inside one set of NVTX ranges: all of them timed; `measured`
/// profiled, `inferred` selected but left to the shape's measured launches.
struct launch_group {
  std::int64_t pid = 0;
  int shape = 0;
  int range = -1;            ///< -1: outside every NVTX range
  std::int64_t launches = 0; ///< timed
  std::int64_t measured = 0;
  std::int64_t inferred = 0;
  double total_s = 0;
  double min_s = 0;
  double max_s = 0;
};

/// Launches of one kernel as the application ran them (timed with events, not replayed).
struct kernel_timing {
  std::string name;
  std::int64_t launches = 0;
  double total_s = 0;
  double median_s = 0;
  double min_s = 0;
  double max_s = 0;
};

/// Launches that could not be profiled, by kernel and reason.
struct not_profiled {
  std::string name;
  std::string reason; ///< "stream capture", "CUDA graph", "profiler unavailable", ...
  std::int64_t launches = 0;
};

/// Everything the injected library wrote.
struct profile_log {
  std::map<std::string, std::string> device; ///< name, cc, sms, chip, ordinal, driver, runtime
  std::string metric_set;
  int passes = 0;
  std::string clock_control; ///< "base" or "none", from the launcher's clock record; "" = none
  std::string clock_note;    ///< what the clock control did (the locked clock, or none locked)
  std::vector<launch_record> launches;
  std::vector<kernel_timing> timings;
  std::vector<not_profiled> skipped;
  std::vector<std::string> errors; ///< messages of failures (profiler unavailable, ...)
  std::vector<std::string> hints;
  int error_exit = 0; ///< exit code asked by an error record (3: no counter access)
  /// Every process that wrote records reached exit (each has its end record).
  bool finished = false;
  /// Launches of every process: from the end records, from the profiled ones without them.
  std::int64_t total_launches = 0;
  /// Processes that launched kernels (one start record each, or more: a record per session).
  int processes = 0;
  /// Where the profiler's time went (profiler_stats fields, summed over devices).
  std::map<std::string, double> profiler_time;
  std::vector<shape_record> shapes;
  std::vector<range_record> ranges;
  std::vector<launch_group> groups;
  /// The launches inferred from their shape's measured ones: per (pid, shape), their indexes.
  std::map<std::pair<std::int64_t, int>, std::vector<std::int64_t>> inferred;
  /// Warp-stall samples per function (mangled name) and reason, from a stall-mode run.
  stall_totals stalls;
  /// Samples the hardware dropped, per process of a stall-mode run.
  std::map<std::int64_t, std::uint64_t> stall_dropped;
  /// Registers per thread as the hardware ran each function, per (process, mangled name): CUPTI's
  /// kernel activity records. They replace the compiled counts of those launches.
  std::map<std::pair<std::int64_t, std::string>, unsigned> function_registers;
};

/// What profiling cost the application, from its record log: the sessions' one-time set-up
/// (once a device and process) and the profiled launches' own time.
struct profile_cost {
  double setup_s = 0;       ///< the "session_setup_s" profiler time, summed
  double launches_s = 0;    ///< the launches' profile_overhead_s, summed
  std::size_t launches = 0; ///< profiled launches
  double total_s() const { return setup_s + launches_s; }
  /// Per profiled launch, the set-up included (0 without one).
  double per_launch_s() const;
  /// Per profiled launch after the set-up: what each further launch costs (0 without one).
  double per_launch_after_setup_s() const;
};
profile_cost profile_cost_of(const profile_log& log);

/// When module unloads ended at least 10 and half of the run's sets of passes (an application
/// that loads, runs and unloads kernels it tries once, as cuDNN does when it benchmarks its
/// algorithms), a note saying so and how to leave that part out; empty otherwise.
std::string unload_sets_note(const profile_log& log);

/// The profiled launches of a log measured with the per-launch set, and that set's passes as the
/// device record gives them ("fewer" in a log without them).
struct per_launch_set_use {
  std::size_t launches = 0;
  std::string passes;
};
per_launch_set_use per_launch_set_of(const profile_log& log);

/// JSON lines of the log (each ends with '\n').
std::string start_line(const std::map<std::string, std::string>& device,
                       const std::string& metric_set, int passes, std::int64_t pid = 0);
std::string launch_line(const launch_record& r);
std::string timing_line(const kernel_timing& t);
std::string not_profiled_line(const not_profiled& n);
std::string error_line(const std::string& message, const std::string& hint, int exit);
std::string end_line(std::int64_t total_launches, std::int64_t pid = 0);
/// The registers per thread a process's kernel activity records give one function (mangled).
std::string registers_line(const std::string& function, unsigned registers, std::int64_t pid = 0);
/// The warp-stall samples of one function, and the samples its process's hardware dropped.
std::string stall_line(const std::string& function,
                       const std::map<std::string, std::uint64_t>& reasons, std::uint64_t dropped,
                       std::int64_t pid = 0);
std::string shape_line(const shape_record& s);
std::string range_line(const range_record& r);
std::string group_line(const launch_group& g);
/// Launches inferred from their shape: (index, shape) pairs of process `pid`.
std::string inferred_line(const std::vector<std::pair<std::int64_t, int>>& launches,
                          std::int64_t pid);
/// The launcher's first line: the clock control it applied before starting the application.
std::string clock_line(clock_control mode, const std::string& note);
/// The profiler's time breakdown: `fields` are profiler_stats' members by name.
std::string profiler_time_line(const std::map<std::string, double>& fields);

/// Parses a log; a truncated last line (the process died while writing) is ignored, any other
/// bad line throws runtime_error naming the line.
profile_log parse_profile_log(std::string_view text);

/// How the application ended.
struct app_outcome {
  int exit_code = 0; ///< when it exited
  int signal = 0;    ///< when a signal ended it (exit_code then 128 + signal)
  bool started = true;
};

/// Per kernel name: its launches, profiled launches, time and share of the application's GPU
/// time (from the timings; from the profiled launches when the log has no timings).
struct kernel_summary {
  std::string name;
  std::int64_t launches = 0;
  std::int64_t profiled = 0;
  double total_s = 0;
  double median_s = 0;
  double share = 0;          ///< of the GPU time of every timed launch, 0..1
  std::int64_t inferred = 0; ///< launches whose work was inferred from their shape's measured ones
  /// Extrapolated over every launch of its measured shapes (sampled_shapes).
  std::map<precision, double> flops;
  std::map<memory_level, double> bytes;
  /// The largest relative spread between measured launches of one of its shapes.
  double spread_time = 0;
  double spread_flops = 0;
  double spread_dram = 0;
  /// The largest (max - min) / mean GPU time over all timed launches of one of its shapes.
  double spread_time_timed = 0;
};

/// The summary, largest total time first.
std::vector<kernel_summary> summarize_kernels(const profile_log& log);

/// One launch shape of the log with its work extrapolated from its measured launches to all its
/// timed launches (each inferred launch does what its shape's measured ones did on average).
struct shape_totals {
  shape_record shape;
  std::int64_t launches = 0;                    ///< timed (every launch of the shape)
  std::int64_t measured = 0;                    ///< profiled with counters (launch records)
  std::int64_t inferred = 0;                    ///< selected, left to the measured ones
  double total_s = 0;                           ///< GPU time of its timed launches
  std::map<precision, double> flops_per_launch; ///< mean of the measured launches
  std::map<memory_level, double> bytes_per_launch;
  std::map<precision, double> flops;    ///< flops_per_launch x launches
  std::map<memory_level, double> bytes; ///< bytes_per_launch x launches
  /// Between the measured launches, (max - min) / mean: counter GPU time, FLOPs (all
  /// precisions), DRAM bytes (0 with one measured launch).
  double spread_time = 0;
  double spread_flops = 0;
  double spread_dram = 0;
  /// Over every timed launch, (max - min) / mean GPU time (0 without the groups' times).
  double spread_time_timed = 0;
};

/// Every shape of the log in order of first appearance (per process). Logs written before
/// sampling (no shape records) get one shape per kernel, grid, block and dynamic shared memory
/// of their launch records, every launch measured.
std::vector<shape_totals> sampled_shapes(const profile_log& log);

/// The launches inside one set of enclosing NVTX ranges (all processes).
struct range_summary {
  std::vector<std::string> path; ///< outermost first; empty: outside every range
  std::int64_t launches = 0;     ///< timed
  std::int64_t measured = 0;
  std::int64_t inferred = 0;
  double total_s = 0;
  double share = 0; ///< of the GPU time of every timed launch, 0..1
  /// Extrapolated over the timed launches of the shapes that have measured launches.
  std::map<precision, double> flops;
  std::map<memory_level, double> bytes;
  double work_time_s = 0; ///< GPU time of those launches (what flops and bytes are over)
};

/// Per NVTX range path, largest GPU time first; empty when the log has no groups.
std::vector<range_summary> summarize_ranges(const profile_log& log);

/// The ranges as kernels of a run (name: the path joined with " > "; work and time their
/// extrapolated totals), to place them on the roofline of `r`'s ceilings.
run range_run(const run& r, const std::vector<range_summary>& ranges);

/// The per-range summary of a run file written by profile (its profile.ranges); empty when it has
/// none. Throws runtime_error for a malformed entry.
std::vector<range_summary> ranges_of_run_file(std::string_view text);

/// The per-range table (id "ranges"): range, launches, measured, inferred, GPU time share,
/// FLOP/s, DRAM bytes, bound, % of roof.
table range_table(const run& ranges_run, const std::vector<range_summary>& ranges);

/// What build_profile_run needs besides the log.
struct profile_run_inputs {
  std::vector<ceiling> ceilings;
  std::string command;
  std::string date;
  std::string host;
  app_outcome app;
  app_profile_options options;
};

/// The run: one kernel per kernel name and launch configuration (mean work, median counter time
/// of its profiled launches, theoretical occupancy from the occupancy engine), largest GPU time
/// first.
run build_profile_run(const profile_log& log, const profile_run_inputs& inputs);

/// The run file text: the roofkit.run/1 JSON of `r` with a "profile" object added (application
/// outcome, per-kernel summary, every profiled launch with its placement, what was not profiled).
std::string profile_run_json(const run& r, const profile_log& log, const profile_run_inputs& in);

/// The run restricted to the kernels that hold the most GPU time (at most `max_kernels`, and
/// enough to cover `share` of it) for the default chart.
run top_kernels_run(const run& r, const profile_log& log, std::size_t max_kernels = 12,
                    double share = 0.95);

} // namespace roofkit

// ---- app process ----
// Starting an application under the injected library and waiting for it.
namespace roofkit {

/// Runs `argv` (searched in PATH when it has no '/') with the current environment plus `env`
/// (which replaces variables of the same name), stdin/stdout/stderr inherited, and waits for it.
/// SIGINT and SIGTERM received meanwhile are passed to it. Throws usage_error when the program
/// cannot be started (not found, not executable).
app_outcome run_app(const std::vector<std::string>& argv,
                    const std::map<std::string, std::string>& env);

/// The injection library: `explicit_path` if not empty (it must exist), otherwise the first of
/// `candidates` that exists; usage_error naming every place looked at otherwise.
std::filesystem::path find_inject_library(const std::string& explicit_path,
                                          const std::vector<std::filesystem::path>& candidates);

/// The libcupti this process loaded (for NVTX_INJECTION64_PATH); empty when unknown.
std::string cupti_library_path();

/// The GPU's profiler taken in turns by the processes of one profiled application: only one
/// process at a time may have a range profiler enabled (another gets CUPTI_ERROR_HARDWARE_BUSY).
/// Two lock files beside the record log (`base` + ".turn", + ".want"), with flock(2): a process
/// holds ".turn" exclusively while its profiler is enabled; one waiting for the turn holds
/// ".want" shared, which the holder sees and answers by giving the turn up. The locks go with
/// the process that holds them, even when it is killed. With an empty `base` the turn is always
/// held (a lone process).
class profiler_turn {
public:
  explicit profiler_turn(const std::string& base);
  ~profiler_turn();
  profiler_turn(const profiler_turn&) = delete;
  profiler_turn& operator=(const profiler_turn&) = delete;

  /// Whether this process holds the turn.
  bool held() const { return held_; }
  /// Takes the turn, waiting while another process holds it; calls `waiting` (with the seconds
  /// waited so far) about once a second while it waits. False when `limit_s` passed first.
  bool take(double limit_s, const std::function<void(double)>& waiting = {});
  /// True when this process holds the turn and another one waits for it.
  bool wanted();
  /// Gives the turn up (the caller has disabled its profiler).
  void give();
  /// The lock files for a record log (removed by the launcher after the application).
  static std::vector<std::filesystem::path> files(const std::string& base);

private:
  int turn_fd_ = -1;
  int want_fd_ = -1;
  bool held_ = false;
  std::chrono::steady_clock::time_point given_at_{};
};

/// The environment for a profiled application: CUDA_INJECTION64_PATH, the options, and, when an
/// NVTX range is asked for, NVTX_INJECTION64_PATH pointing to libcupti.
std::map<std::string, std::string> profile_environment(const app_profile_options& options,
                                                       const std::filesystem::path& inject_library,
                                                       const std::string& cupti_path);

} // namespace roofkit

namespace roofkit {

/// One `profile` of an application.
struct app_profile_request {
  app_profile_options options; ///< record_path is chosen here when empty
  std::vector<std::string> argv;
  std::string inject_library; ///< explicit path; empty: the first of inject_candidates
  std::vector<std::filesystem::path> inject_candidates;
  std::string ceilings_file; ///< a file with a "ceilings" array (run or machine file); "" = none
  /// Measured roofs placed over the device's theoretical ones (choose_roofs); empty: none.
  std::vector<ceiling> measured_ceilings;
  std::string command; ///< the command line, recorded in the run
  /// Keep the record log at this path (options.record_path); "" = a temporary file, removed.
  std::string records_file;
  /// Build the run from the record log at records_file instead of running an application.
  bool from_records = false;
  std::function<void(const std::string&)> say; ///< our messages (stderr, prefixed)
  /// Preloaded into the application (LD_PRELOAD, before any the user set); "" = none.
  std::string preload_library;
  /// Run the application once more under warp-stall sampling (CUPTI PC sampling, which cannot
  /// share a pass with the counters) and put the samples on the run's kernels (attach_stalls).
  bool stalls = false;
};

/// Counter-name prefix of a kernel's warp-stall samples: "roofkit__stall__long_scoreboard".
inline constexpr const char* stall_counter_prefix = "roofkit__stall__";
/// Puts each function's stall samples on the run's kernels of that function (matched by mangled
/// name, else by name) as counters stall_counter_prefix + reason; returns the kernels matched.
std::size_t attach_stalls(run& r, const stall_totals& stalls);

/// What came of it.
struct app_profile_result {
  app_outcome app;
  profile_log log;
  run result;
  profile_run_inputs inputs;
  /// The exit code for the tool: the application's when it failed, else the error record's (3:
  /// no counter access, another profiler), else 0.
  int exit_code = 0;
  /// The record logs of the ranks of a multi-process job (rank, text), each rank's own
  /// (roofkit/ranks.hpp); empty when no process had a rank.
  std::vector<std::pair<int, std::string>> rank_logs;
};

/// Starts the application under the injected library, waits, reads the records (whatever there
/// is when the application crashed) and builds the run. Ceilings: those of `ceilings_file`, or
/// the theoretical ones of the device the records name (the live device, or its data/gpus.json
/// spec without a GPU).
app_profile_result profile_application(const app_profile_request& request);

/// Reads the "ceilings" array of a run file or machine file; usage_error when there is none.
std::vector<ceiling> load_ceilings_file(const std::filesystem::path& path);

/// The functions (mangled names) of a GPU module image that call the device heap (malloc, free),
/// directly or through the functions they call, read from the symbols and the call graph of each
/// cubin in `image` (a cubin, or a fat binary of uncompressed cubins). Every function of a cubin
/// that names a heap function but has no call graph is listed. Empty for anything else.
std::set<std::string> kernels_using_device_heap(const void* image, std::size_t size);

/// The variables of a GPU module image that kernels can write (`__device__` and `__managed__`
/// variables: data objects of the .nv.global and .nv.global.init sections), by symbol name (as
/// cuModuleGetGlobal takes it), with their sizes in bytes, over every cubin in `image`. Constant
/// memory is not listed. Empty for anything that is not such an image.
std::map<std::string, std::size_t> writable_device_variables(const void* image, std::size_t size);
/// True when a cubin or fat binary defines __managed__ variables (memory the host can write).
bool has_managed_variables(const void* image, std::size_t size);

/// Makes sure the device heap of the current context is set up: one thread of a kernel of
/// roofkit's takes and frees a few bytes. Setting up the heap is part of the first heap call of
/// a context and a replay would undo it (docs/profile.md), so the injected library calls this
/// before saving memory for the first replay of a kernel that uses the heap. After it the
/// application can no longer change the heap size, as after its own first heap-using kernel.
void prepare_device_heap();

/// The per-kernel summary as a table (id "profile"): kernel, launches, profiled, total and median
/// time, share of GPU time, bound and % of roof of its first configuration.
table profile_summary_table(const run& r, const profile_log& log);

} // namespace roofkit

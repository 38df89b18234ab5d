#pragma once
// roofkit/profiler.hpp: the CUPTI range profiler: metric sets, passes, per-kernel values.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofkit/printer.hpp"
#include "roofkit/run.hpp"

// ---- metrics ----
// Metric sets: what roofkit collects through CUPTI, and how a set is resolved for one chip.
// Pure data and logic; the CUPTI host API is reached only through metric_catalog.
namespace roofkit {

/// What a metric's value means to the roofline model.
enum class metric_role {
  flops,      ///< instructions or operations; times `weight` gives FLOPs of `prec`
  bytes,      ///< bytes moved at `level`
  time,       ///< kernel duration in nanoseconds
  sm_cycles,  ///< SM cycles elapsed (average over SMs)
  sm_clock,   ///< SM clock in Hz
  dram_clock, ///< DRAM clock in Hz
  occupancy,  ///< achieved occupancy in percent of the SM's warp slots
  count,      ///< a plain count (requests, sectors, wavefronts, conflicts, instructions)
};

/// One quantity of a set, with the CUPTI names (rollup included) that spell it on different
/// chips. The first name the chip knows is used; none -> the metric is dropped with a warning.
struct metric_spec {
  std::string key;                ///< stable short name ("ffma", "dram_read", ...)
  std::vector<std::string> names; ///< candidate CUPTI names, in order of preference
  std::string description;        ///< what it is, in roofkit's words
  metric_role role = metric_role::count;
  precision prec = precision::fp32; ///< for role flops
  double weight = 1; ///< FLOPs per counted instruction/op (flops), bytes per count (bytes)
  memory_level level = memory_level::dram; ///< for role bytes
  bool optional = false;                   ///< kept only while the set stays within its pass budget
  /// Chips that have the hardware path (name prefixes, "AD10" = AD102..AD107); empty = every
  /// chip that knows a name. CUPTI lists some counters on chips without the unit (DMMA on AD102).
  std::vector<std::string> chips;
};

/// A named metric set.
struct metric_set_def {
  std::string name;
  std::string description;
  std::vector<metric_spec> metrics;
  int pass_budget = 0; ///< optional metrics are added while passes <= budget (0: no budget)
};

/// The built-in sets: "roofline", "roofline-full", "tensor", "coalescing".
const std::vector<metric_set_def>& metric_sets();
/// A built-in set by name; throws usage_error listing the valid names.
const metric_set_def& find_metric_set(const std::string& name);
/// A set made of raw CUPTI metric names (each its own key, role count, all required).
metric_set_def custom_metric_set(const std::vector<std::string>& names);

/// What the chip knows: implemented with the CUPTI host API (profiler_host.hpp) or by a fake in
/// tests.
class metric_catalog {
public:
  virtual ~metric_catalog() = default;
  /// The chip name ("GH100").
  virtual std::string chip() const = 0;
  /// True when the chip has this metric (with its rollup).
  virtual bool has(const std::string& name) const = 0;
  /// NVIDIA's description of the metric ("" when unknown).
  virtual std::string description(const std::string& name) const = 0;
  /// Replay passes needed to collect all the names together.
  virtual int passes(const std::vector<std::string>& names) const = 0;
};

/// A metric of a resolved set.
struct resolved_metric {
  metric_spec spec;
  std::string name; ///< the CUPTI name chosen for this chip
  std::string nvidia_description;
};

/// Why a metric of a set is not collected.
enum class drop_reason {
  not_on_chip, ///< no candidate name exists on the chip
  over_budget, ///< optional, and adding it would exceed the pass budget
};

/// A metric left out, and why.
struct dropped_metric {
  metric_spec spec;
  drop_reason reason = drop_reason::not_on_chip;
};

/// A metric set as collected on one chip.
struct resolved_set {
  std::string set;
  std::string chip;
  std::vector<resolved_metric> metrics;
  std::vector<dropped_metric> dropped;
  int passes = 0;
  /// Counters scheduled in the leading passes, which start from a flushed L2 under cache control;
  /// the others follow in passes that need no flush (lay_out_cold_passes). Empty: one group.
  std::vector<std::string> cold_names;
  /// Leading passes that need cache control: -1 for every pass, 0 for none.
  int cold_passes = -1;
  /// True when pass `index` (from 0) must start from a flushed L2.
  bool needs_cold_l2(int index) const { return cold_passes < 0 || index < cold_passes; }
  /// How many passes must start from a flushed L2 (all of them when cold_passes is -1).
  int flushed_passes() const { return cold_passes < 0 ? passes : cold_passes; }
  /// The names in the groups of the config image: the cold ones first when there are two.
  std::vector<std::vector<std::string>> config_groups() const;
  /// One line per required metric the chip lacks (for stderr).
  std::vector<std::string> warnings() const;
  /// One line naming the optional metrics left out to keep within the pass budget, if any.
  std::vector<std::string> notes() const;
  /// The chosen CUPTI names, in order.
  std::vector<std::string> names() const;
  /// The resolved metric with this key, or nullptr.
  const resolved_metric* find(const std::string& key) const;
};

/// Resolves a set for the catalog's chip: picks each metric's name, drops what the chip lacks,
/// then adds optional metrics in order while the pass count stays within the budget.
resolved_set resolve_metric_set(const metric_set_def& def, const metric_catalog& catalog);

/// True for a counter that reads the same whatever the L2 and DRAM held when the kernel started:
/// instruction, tensor-op, L1 request and shared-memory wavefront counts. DRAM, L2, time, cycle,
/// rate and occupancy counters, and every counter not known to be such a count, are false.
bool independent_of_cache_state(const std::string& cupti_name);

/// Splits `set` into two groups of the config image (CUPTI schedules each group in passes of its
/// own, in order): the counters that depend on the cache state, with every other counter that
/// fits into their passes, then the rest. Kept only when it needs no more passes than one group;
/// sets cold_names and cold_passes (left at -1, every pass, otherwise).
void lay_out_cold_passes(resolved_set& set, const metric_catalog& catalog);

/// "not on chip" / "over pass budget".
std::string to_string(drop_reason r);
/// "flops", "bytes", "time", ...
std::string to_string(metric_role r);

} // namespace roofkit

// ---- metrics report ----
// Tables describing the metric sets (offline, no GPU needed).
namespace roofkit {

/// The sets without a chip: name, description, number of metrics (table id "sets").
table metric_sets_table();

/// For resolved sets: the sets with their pass counts (id "sets") and every metric with its
/// CUPTI name, role, weight, whether it is collected, why not, and descriptions (id "metrics").
std::vector<table> metric_tables(const std::vector<resolved_set>& sets);

/// Resolves the named set (or every built-in set) offline for `chip` with the host API;
/// usage_error for an unknown chip or set.
std::vector<resolved_set> resolve_offline(const std::string& chip,
                                          const std::optional<std::string>& set);

} // namespace roofkit

// ---- profiler ----
// The CUPTI range profiler (CUDA 12.6+ API): per-kernel or per-range metric values on a GPU, and
// the roofline quantities derived from them.
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

/// The metric set that bench and application profiles collect per kernel: the roofline set plus
/// the coalescing and claim counters (bench_detail_metrics()), so that every value placed or
/// stored for a kernel comes from one consistent pass set.
metric_set_def bench_metric_set();

/// Keys of bench_metric_set()'s metrics that a launch shape's first launches measure for all of
/// its launches: achieved occupancy, the L1 tag bytes and the INT8 mma.sync path. Left out, the
/// set needs one pass fewer on GH100, and one pass fewer with SM counters, the passes whose
/// ranges cost most (validation/data/replay-launch-cost-h200.json).
const std::vector<std::string>& shape_detail_keys();

/// bench_metric_set() without shape_detail_keys() and without the counters that only seed claims
/// ask for: what the later launches of a shape carry when every launch of an application is
/// profiled.
metric_set_def bench_per_launch_metric_set();

/// Whether a launch measured with the full set `full` counted FLOPs in a metric of
/// shape_detail_keys() (a non-zero value in `values`): later launches of its shape then need the
/// full set too, or that work would be missing from them.
bool per_launch_set_misses(const resolved_set& full, const std::map<std::string, double>& values);

/// Waves of a launch on the device, as Nsight Compute's launch__waves_per_multiprocessor: its
/// grid's blocks over (SMs x blocks per SM); 0 when `blocks_per_sm` or `sms` is 0.
double waves_per_sm(const launch_config& launch, int sms, int blocks_per_sm);

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
/// "all" / "none" (the mode tables: lib/src/profiler/modes.cpp).
std::string to_string(cache_control c);
/// Parses "all" / "none"; throws usage_error "cache control 'x' is not valid (valid: all, none)".
cache_control parse_cache_control(std::string_view text);

/// Options of a profiler session.
struct profiler_options {
  /// Applied by profile_launches() and profile_range() before every pass. profile() replays
  /// inside CUPTI (kernel replay) and can only flush before its first pass.
  roofkit::cache_control cache = roofkit::cache_control::all;
  /// With cache_control::all, flush through the kernel driver (its write-back and invalidate of
  /// the whole L2, as Nsight Compute's cache control) where it is available, on a driver version
  /// whose interface was verified, and unless ROOFKIT_DRIVER_FLUSH=off; else, and from any
  /// failure of the driver's flush on, with l2_flusher's sweep (said once through `warn`);
  /// false always sweeps. cache_control_method() says which is used, and
  /// cache_control_fallback_reason() why not the driver's.
  bool driver_flush = true;
  /// Kernel launches one profile() call is sized for; one more is kept, and a call that fills
  /// that too is warned about (launches beyond it are not profiled).
  std::size_t max_ranges = 64;
  /// Launches one profile_launch_sequence() call (steps one profile_steps() call) takes at most.
  /// The range profiler that profile_launch() keeps enabled is first configured for this many
  /// launches, each with its cache control (CUPTI keeps the first configuration of an enabled
  /// profiler); each call then sizes its counter image for its own launches.
  std::size_t max_launch_sequence = 1;
  /// profile_steps() (and the profiler enable_range_profiler() warms up) in user range: each
  /// measured step is a range of its own, pushed after its cache control and popped once it has
  /// run; the steps not measured run outside any range. In auto range every kernel is a range, and
  /// CUPTI's launch of one took 0.46-0.86 ms a pass on an H200 against 6 us outside a range
  /// (validation/data/launch-cost-states-h200.json). Not a default: a user range's time and
  /// cycle counters span its push to its pop (14-35 us more than auto range's on a training step
  /// whose median kernel takes 5.7 us), and 7 of its 818 launches wrote 74-172 KB more to DRAM
  /// (validation/data/user-range-replay-h200.json); instruction and byte counts were equal.
  bool step_user_ranges = false;
  /// Receives warnings (dropped metrics, dropped ranges); default: stderr, "roofkit: warning: ".
  std::function<void(const std::string&)> warn;
  /// Where the session keeps its configured metric set between processes
  /// (configure_metric_set); empty: computed in every session, nothing written.
  std::filesystem::path config_cache_dir;
};

/// One piece of work of a profiled batch and the number of kernels it launches.
struct batch_work {
  std::function<void()> work;
  std::size_t launches = 1;
  /// If set, runs before the work's cache control in every pass and must launch no kernel: it
  /// restores what the work needs (e.g. moves managed pages back to the host).
  std::function<void()> before;
};

/// Where a session's wall time went (profile_launches calls), for overhead reports.
struct profiler_stats {
  int calls = 0;       ///< calls of every mode but profile() (kernel replay)
  int passes = 0;      ///< replay passes over all calls
  double setup_s = 0;  ///< enabling the profiler, counter-data image, configuration
  double passes_s = 0; ///< the passes: preparation, cache control, the work, start/stop
  double decode_s = 0; ///< decoding and evaluating the counter data
  // Where the passes' time goes (sums over all passes):
  double before_s = 0; ///< the caller's per-pass preparation (e.g. restoring memory)
  double start_s = 0;  ///< starting a pass (cuptiRangeProfilerStart)
  double body_s = 0;   ///< cache control and the work, up to its synchronisation
  double flush_s = 0;  ///< synchronised cache control (inside body_s for the user-replay modes)
  double issue_s = 0;  ///< issuing the launch steps' work on the host (inside body_s)
  double wait_s = 0;   ///< waiting for each launch step to finish (inside body_s)
  double stop_s = 0;   ///< ending a pass (cuptiRangeProfilerStop)
  double image_s = 0;  ///< making the counter-data images (inside setup_s)
  double config_s = 0; ///< configuring the profiler for a call (inside setup_s)
  double first_start_s = 0;           ///< starting the first pass of a call (inside start_s)
  double ride_issue_s = 0;            ///< issuing the steps that are not measured (inside issue_s)
  std::int64_t steps_issued = 0;      ///< launch steps issued over all passes
  std::int64_t ride_steps_issued = 0; ///< of those, the steps that are not measured
  double session_s = 0; ///< creating the session: counter availability, metrics, configuration
  std::vector<double> issue_by_pass; ///< issue_s by the pass's index in its call
  std::size_t image_bytes = 0;       ///< the largest counter-data image made

  /// Adds every count and time of `other` (e.g. the sessions of several devices); keeps the
  /// larger image_bytes.
  profiler_stats& operator+=(const profiler_stats& other);
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
  /// How cache control empties the L2 before each pass: "none", "driver" (the kernel driver's
  /// write-back and invalidate) or "sweep" (l2_flusher). Decided at the first profiling call
  /// (before it, the method asked for); "sweep" from a failure of the driver's flush on.
  std::string cache_control_method() const;
  /// Why the sweep is used instead of the driver's flush (version not verified, unreadable
  /// version, ROOFKIT_DRIVER_FLUSH=off, the driver refused it at open, a failure mid-run);
  /// empty while the driver's flush is used, or with cache_control::none.
  std::string cache_control_fallback_reason() const;
  /// The passes of each set that start from an emptied L2: all of them with the sweep, only the
  /// leading ones of the counters that depend on the cache state with the driver's flush
  /// (resolved_set::cold_passes), 0 with cache_control::none.
  int cache_controlled_passes() const;

  /// Auto range + kernel replay: runs `work` once; CUPTI replays each kernel it launches
  /// passes() times, restoring device memory in between, and synchronises after each kernel.
  /// Returns one entry per kernel launch, in launch order.
  std::vector<range_values> profile(const std::function<void()>& work);

  /// Auto range + user replay: calls `work` once per pass (passes() calls in all); every kernel
  /// it launches is its own range, as in profile(), but each pass starts after `before_pass`
  /// (e.g. restoring inputs) and, with cache_control::all where the pass holds counters that
  /// depend on the cache state (resolved_set::needs_cold_l2), a write-back-and-invalidate of the
  /// L2. All such metrics of a launch thus come from passes that start from the same state. `work`
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
  /// returns the totals of everything it launched. The range profiler stays enabled between
  /// calls (until another mode is used), which makes a call several times cheaper. `work` must give
  /// the same GPU work on every call (restore its own inputs if it overwrites them). `before_pass`,
  /// if given, runs before each pass outside the range (e.g. an L2 flush).
  range_values profile_range(const std::string& name, const std::function<void()>& work,
                             const std::function<void()>& before_pass = {});
  /// Auto range + user replay for one kernel launch: calls `work` (which must launch exactly one
  /// kernel) passes() times, each after `before_pass` and cache control, and returns that
  /// kernel's values; its range is the kernel alone, so its duration is the kernel's, without the
  /// launch overhead a user range holds. Keeps the profiler enabled between calls, as
  /// profile_range() does; throws when `work` launched another number of kernels.
  range_values profile_launch(const std::function<void()>& work,
                              const std::function<void()>& before_pass = {});
  /// profile_launch() for several launches in turn, in one set of passes: each pass runs every
  /// work after its own cache control and waits for it, so each launch's counters are as if
  /// profiled alone while the profiler's cost per pass is paid once. Each work must launch
  /// exactly one kernel; returns one entry per work, in order. Takes at most
  /// profiler_options::max_launch_sequence works (usage_error beyond).
  std::vector<range_values> profile_launch_sequence(const std::vector<std::function<void()>>& works,
                                                    const std::function<void()>& before_pass = {});
  /// One step of profile_steps(): a kernel launch (`kernel`) or other device work such as a
  /// memset, measured or only re-issued to keep device memory as the application's run left it.
  struct sequence_step {
    std::function<void()> work;
    bool measured = true; ///< a kernel launch whose counters are wanted, after cache control
    bool kernel = true;   ///< launches exactly one kernel (a range of its own)
  };
  /// profile_launch_sequence() with steps that are not measured in between: each pass runs every
  /// step in order and waits for it, with cache control before the measured ones only. Returns
  /// one entry per measured step, in order. Takes at most max_launch_sequence steps.
  std::vector<range_values> profile_steps(const std::vector<sequence_step>& steps,
                                          const std::function<void()>& before_pass = {});
  /// Enables the range profiler that profile_range() and profile_launch() keep, ahead of the
  /// first call: a missing counter permission or another profiler attached to the context
  /// throws here (roofkit::error with its exit code), as check_profiler() reports it. With cache
  /// control "all" it also opens the cache control (the driver's flush, or the sweep's buffer of
  /// 4 x L2 of device memory where that is not available) and runs one set of passes on a small
  /// kernel (on the sweep's kernels with the sweep), so that CUPTI takes its device memory now,
  /// while memory is free: an application that fills device memory later still has its launches
  /// profiled.
  void enable_range_profiler();
  /// Disables the range profiler that profile_range() and profile_launch() keep (another process
  /// may then enable its own); their next call enables it again.
  void release_range_profiler();
  /// The session's context is being destroyed (cudaDeviceReset, cuCtxDestroy): disables the kept
  /// range profiler with CUPTI calls only and abandons the device buffers, which go with the
  /// context; no CUDA call is made. The session must not be used afterwards.
  void context_lost();

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace roofkit

// ---- profiler host ----
// The CUPTI profiler host API (cupti_profiler_host.h): metric names, descriptions, pass counts
// and evaluation of counter data for a chip. Needs no GPU and no driver.
namespace roofkit {

/// Chips the CUPTI host API knows ("GA100", "GH100", ...), no GPU needed.
std::vector<std::string> supported_chips();

/// Upper-cases a chip name and checks it against supported_chips(); throws usage_error naming
/// the valid chips otherwise.
std::string normalize_chip_name(const std::string& chip);

/// How many hardware metrics fit in one pass on the chip (a hint; SASS metrics and counter
/// multiplexing change the real number); 0 for a chip the range profiler does not support.
int max_metrics_per_pass(const std::string& chip);

/// metric_catalog backed by the CUPTI host API for one chip.
class cupti_catalog final : public metric_catalog {
public:
  /// A catalog for `chip`. `availability` is the device's counter-availability image (empty
  /// offline: pass counts are then those of a device with every counter available).
  explicit cupti_catalog(const std::string& chip, std::vector<std::uint8_t> availability = {});
  ~cupti_catalog() override;
  cupti_catalog(const cupti_catalog&) = delete;
  cupti_catalog& operator=(const cupti_catalog&) = delete;

  std::string chip() const override;
  bool has(const std::string& name) const override;
  std::string description(const std::string& name) const override;
  int passes(const std::vector<std::string>& names) const override;
  /// The counter-availability image the catalog was made with (empty offline).
  const std::vector<std::uint8_t>& availability() const;

  /// The config image that schedules `names` (for cuptiRangeProfilerSetConfig).
  std::vector<std::uint8_t> config_image(const std::vector<std::string>& names) const;
  /// The config image of several groups, each scheduled in passes of its own, in order.
  std::vector<std::uint8_t> config_image(const std::vector<std::vector<std::string>>& groups) const;
  /// Replay passes that a config image needs.
  static int image_passes(const std::vector<std::uint8_t>& config_image);
  /// A blank counter-data image for `names` and `ranges` ranges that keeps each raw counter's
  /// total only, not its value per unit instance (a few KiB a range instead of hundreds).
  std::vector<std::uint8_t> totals_image(const std::vector<std::string>& names,
                                         std::size_t ranges) const;
  /// Evaluates `names` for one range of a decoded counter-data image.
  std::vector<double> evaluate(const std::vector<std::uint8_t>& counter_data, std::size_t range,
                               const std::vector<std::string>& names) const;
  /// The names of the ranges stored in a counter-data image.
  static std::vector<std::string> range_names(const std::vector<std::uint8_t>& counter_data);

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// A metric set resolved for a chip, its passes laid out, and the config image that schedules
/// them: what a profiling session works out when it opens.
struct configured_set {
  resolved_set set;
  std::vector<std::uint8_t> config; ///< empty when the set has no metric on the chip
  bool from_cache = false;          ///< read from a cache file, not worked out now
};

/// Resolves `def` on the catalog's chip (resolve_metric_set), lays out its cold passes
/// (lay_out_cold_passes) and makes its config image; where CUPTI would not schedule the two
/// groups apart, one group whose every pass is flushed. With a `cache_dir`, a file there whose
/// key matches metric_config_key() is used instead, and a set worked out now is written there
/// (atomically). A missing, stale, corrupt or unwritable file means working it out again, never
/// an error.
configured_set configure_metric_set(const metric_set_def& def, const cupti_catalog& catalog,
                                    const std::filesystem::path& cache_dir = {});

/// What a cache file of configure_metric_set() must match: the chip, a digest of its counter
/// availability, the CUPTI and roofkit versions and a digest of the set's definition.
std::string metric_config_key(const metric_set_def& def, const cupti_catalog& catalog);

} // namespace roofkit

// ---- warp stalls ----
// CUPTI PC sampling: where the warps of each kernel wait, by stall reason (docs/diagnosis.md).
struct CUctx_st;
namespace roofkit {

/// Samples per stall reason (stall_reason_key names), for each function (its mangled name).
using stall_totals = std::map<std::string, std::map<std::string, std::uint64_t>>;

/// The short key of a CUPTI stall reason: "smsp__pcsamp_warps_issue_stalled_long_scoreboard" and
/// its "..._not_issued" twin both give "long_scoreboard"; another spelling is kept as it is.
std::string stall_reason_key(const std::string& cupti_name);

/// Adds `more` into `into`, function by function and reason by reason.
void add_stall_totals(stall_totals& into, const stall_totals& more);

/// PC sampling in continuous mode (kernels are not serialised) on one context, every stall
/// reason selected, from construction until finish(). Throws roofkit::error when the device or
/// driver cannot sample (the message names the CUPTI call).
class stall_sampler {
public:
  explicit stall_sampler(CUctx_st* ctx);
  ~stall_sampler(); ///< finish()es, swallowing errors
  stall_sampler(const stall_sampler&) = delete;
  stall_sampler& operator=(const stall_sampler&) = delete;

  /// Moves what CUPTI has gathered so far into totals(); never synchronises the device. Call it
  /// before a module is unloaded (CUPTI's rule for continuous mode) and now and then.
  void collect();
  /// Stops sampling and takes the rest. Later calls do nothing.
  void finish();
  const stall_totals& totals() const;
  /// Samples the hardware dropped (buffer back-pressure); they are in no total.
  std::uint64_t dropped() const;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace roofkit

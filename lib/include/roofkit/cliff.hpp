#pragma once
// roofkit/cliff.hpp: cliff sweeps of one launch parameter.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofkit/printer.hpp"

// Performance-cliff investigations: a sweep of one launch parameter (block size, dynamic shared
// memory, register cap, problem size) with, at every point, the occupancy our engine predicts
// and what was measured (time, spread, achieved occupancy, rate, roofline position); then the
// steps of the prediction and the drops of the measurement, matched against each other.
//
// Host C++ only (no fmt, no JSON, no CUDA headers needed by callers).
namespace roofkit {

/// The launch parameter a cliff sweep varies.
enum class sweep_axis {
  block, ///< threads per block, at run time
  smem,  ///< dynamic shared memory per block (bytes), at run time
  regs,  ///< register cap per thread, through variants compiled at each cap
  size,  ///< problem size (the working set moves through the cache levels)
};

/// "block", "smem", "regs", "size"
std::string to_string(sweep_axis a);
/// Inverse of to_string; throws usage_error naming the value and the valid choices.
sweep_axis parse_sweep_axis(std::string_view text);
/// What the swept value is: "threads per block", "dynamic shared memory per block (bytes)", ...
std::string sweep_axis_label(sweep_axis a);

/// The values of a sweep: first:last:step (arithmetic) or first:last:xF (geometric, factor F).
struct sweep_range {
  std::int64_t first = 0;
  std::int64_t last = 0;
  std::int64_t step = 1;  ///< the increment, or the factor when geometric
  bool geometric = false; ///< multiply by `step` instead of adding it
};

/// Largest number of points a sweep may have.
inline constexpr std::size_t max_sweep_points = 4096;

/// Parses "a:b:step" or "a:b:xF"; a and b take K/M/G suffixes (powers of 1024) and "KB"/"KiB".
/// Throws usage_error naming the text and the expected form when it is malformed, empty
/// (first > last), has a step < 1 (factor < 2), has more than max_sweep_points values, or holds
/// values outside the axis' valid range (block 1..1024, smem 0..1 GiB, regs 1..255, size >= 1).
sweep_range parse_sweep_range(std::string_view text, sweep_axis axis);

/// Parses a count with an optional K/M/G suffix (powers of 1024: "32M" = 33554432); throws
/// usage_error naming `what` and the text otherwise.
std::int64_t parse_count(std::string_view text, std::string_view what);

/// Every value of the range, ascending; `last` is included when the steps land on it.
std::vector<std::int64_t> sweep_values(const sweep_range& r);

/// The range a sweep uses when none is given: block 32:1024:32, smem 0:224K:8K, regs 16:128:8,
/// size 64K:1G:x2 (size in the kernel's unit; the caller clips it to the kernel's valid sizes).
sweep_range default_sweep_range(sweep_axis a);

/// "64:1024:64" or "1024:1073741824:x2".
std::string to_string(const sweep_range& r);

/// Parses a detection threshold given in percent ("5", "5%", "2.5"): the fraction (0.05).
/// usage_error naming the text and the valid range (0 < t < 100) otherwise.
double parse_threshold_percent(std::string_view text);

/// Seconds per unit of a time unit ("s", "ms", "us", "µs", "ns"); nullopt for anything else
/// (a rate unit such as "GB/s": higher is better).
std::optional<double> time_unit_seconds(std::string_view unit);

// ---------------------------------------------------------------------------------------------
// Detection

/// One measured point of a series: a rate (higher is better) and its relative run-to-run spread.
struct series_point {
  double x = 0;
  double value = 0;  ///< the rate (bytes/s, FLOP/s, 1/s); <= 0 or NaN: no measurement
  double spread = 0; ///< relative spread of the rate over the repetitions (0.03 = 3%)
};

/// The run-to-run spread of repeated measurements: (p90 - p10) / median (linear interpolation
/// between order statistics); 0 for fewer than two samples.
double relative_spread(std::vector<double> samples);

/// How changes are told apart from noise.
struct cliff_options {
  double threshold = 0.05;    ///< relative change that counts (5%)
  double spread_factor = 2.0; ///< and the change must exceed this many times the larger spread
};

/// A change of the measured rate between plateau levels.
struct measured_change {
  std::size_t from = 0; ///< index of the last point before the change (the plateau's level)
  std::size_t at = 0;   ///< index of the first point after it
  double before = 0;    ///< the rate at `from`
  double after = 0;     ///< the rate at `at`
  double relative = 0;  ///< after / before - 1 (negative: a drop)
  bool drop() const { return relative < 0; }
};

/// Changes of a series beyond the threshold and the spread. Each point is compared with the
/// level of the current plateau (the point after the last change): a change is recorded when the
/// difference exceeds max(threshold, spread_factor x the larger spread of the two points), and
/// the level moves there. A slow drift that adds up past the threshold is reported where the
/// sum passes it. Points without a measurement are skipped.
std::vector<measured_change> find_changes(const std::vector<series_point>& series,
                                          const cliff_options& options = {});

/// A step of the predicted occupancy between two consecutive points.
struct predicted_step {
  std::size_t from = 0;
  std::size_t at = 0;
  double before = 0; ///< theoretical occupancy, 0..1
  double after = 0;
  int blocks_before = 0;
  int blocks_after = 0;
  std::string cause; ///< the limiter after the step when it dropped, before it when it rose
};

/// One point's prediction, the input of find_steps().
struct predicted_point {
  double occupancy = 0;
  int active_blocks = 0;
  std::string limiter; ///< "registers", "shared_memory", "warps", "blocks", ...
};

/// Every change of the predicted occupancy between consecutive points.
std::vector<predicted_step> find_steps(const std::vector<predicted_point>& points);

/// How a predicted step and a measured change relate.
enum class cliff_verdict {
  agree,          ///< occupancy and rate changed at the same point in the same direction
  opposite,       ///< they changed at the same point in opposite directions
  predicted_only, ///< occupancy changed, the rate did not (beyond noise)
  measured_only,  ///< the rate changed with no occupancy step
};

/// "agree", "opposite", "predicted only", "measured only"
std::string to_string(cliff_verdict v);

/// A predicted step, a measured change, or both at one place of the sweep.
struct cliff_event {
  cliff_verdict verdict = cliff_verdict::agree;
  std::size_t at = 0;                    ///< point index after the step/change
  std::optional<predicted_step> step;    ///< the occupancy step, if any
  std::optional<measured_change> change; ///< the measured change, if any
  std::string cause;                     ///< the resource or effect, in words
};

/// Pairs steps and changes. A change spans the points (from, at]; it pairs with one step inside
/// that span: the one nearest its end in the same direction, else the nearest in the opposite
/// direction. Unpaired steps are "predicted only", unpaired changes "measured only". Events are
/// ordered by `at`.
std::vector<cliff_event> match_cliffs(const std::vector<predicted_step>& steps,
                                      const std::vector<measured_change>& changes);

// ---------------------------------------------------------------------------------------------
// Results

/// Everything measured and predicted at one value of the sweep.
struct cliff_point {
  std::int64_t value = 0;    ///< the swept value
  std::string status = "ok"; ///< "ok", "failed" (verification), "skipped", "error"
  std::string message;       ///< why, when not ok
  // The launch.
  std::int64_t size = 0; ///< problem size
  std::int64_t grid = 0; ///< blocks in the grid
  int block = 0;         ///< threads per block
  std::int64_t dynamic_smem = 0;
  std::int64_t static_smem = 0;
  int register_cap = 0;         ///< regs sweeps: the variant's cap (0: none)
  int registers = 0;            ///< from the function's attributes
  std::int64_t local_bytes = 0; ///< local memory per thread (attributes): spills and stack
  std::optional<std::int64_t> spill_stores; ///< bytes, from the ptxas log when given
  std::optional<std::int64_t> spill_loads;  ///< bytes, from the ptxas log when given
  double working_set_bytes = 0;             ///< device memory the kernel touches
  // The prediction (our occupancy engine).
  double occupancy_theoretical = 0; ///< 0..1
  int active_blocks = 0;            ///< per SM
  std::string limiter;              ///< limiting resources, e.g. "registers" or "warps, blocks"
  double waves = 0;                 ///< grid / (active blocks x SMs)
  // The measurement.
  std::optional<double> occupancy_achieved; ///< 0..1, counters
  double time_median_s = 0;
  double time_min_s = 0;
  double time_max_s = 0;
  int repetitions = 0;
  double spread = 0;                     ///< (p90 - p10) / median of the times
  double flops = 0;                      ///< algorithmic FLOPs
  double bytes = 0;                      ///< minimal DRAM bytes of the algorithm
  std::map<std::string, double> counted; ///< counter-based: "dram_bytes", "l2_bytes", "l1_bytes",
                                         ///< "flops", "sm_clock_mhz", "dram_clock_mhz"
  // Derived.
  double rate = 0;        ///< the series value: bytes/s or FLOP/s (cliff_result::rate_unit)
  double intensity = 0;   ///< FLOP per DRAM byte (counted bytes when available)
  double attainable = 0;  ///< FLOP/s the roofs allow at that intensity (0 when unknown)
  double pct_of_roof = 0; ///< 100 x achieved / attainable (0 when unknown)
  std::string bound;      ///< "dram", "fp32", ... (empty when unknown)
};

/// One sweep, its context and its analysis: what a cliff file holds
/// (schema roofkit.cliff/1).
struct cliff_result {
  std::string kernel;
  std::string kernel_description;
  sweep_axis axis = sweep_axis::block;
  sweep_range range;
  std::string rate_name; ///< "bandwidth" (minimal bytes / time) or "FLOP/s"
  std::string rate_unit; ///< "B/s" or "FLOP/s"
  cliff_options options;
  std::vector<cliff_point> points;
  std::vector<predicted_step> steps;
  std::vector<measured_change> changes;
  std::vector<cliff_event> events;
  // Context.
  std::string device;
  int cc_major = 0, cc_minor = 0, sm_count = 0;
  double l2_bytes = 0;      ///< L2 size, for size sweeps
  double l1_bytes = 0;      ///< L1/shared per SM, for size sweeps
  double sm_clock_mhz = 0;  ///< observed after the sweep
  double mem_clock_mhz = 0; ///< DRAM clock (reported by the device)
  std::string date, host, tool_version, git_revision, driver_version, runtime_version;
  std::string command;
  std::string counters_note; ///< why achieved occupancy is missing, when it is
  std::map<std::string, std::string> extra;
};

/// The schema name of cliff files.
inline constexpr std::string_view cliff_schema = "roofkit.cliff/1";

/// Recomputes steps, changes and events from the points (and names the causes): pure.
void analyze_cliffs(cliff_result& r);

/// The cause of a measured change without an occupancy step, from what else changed between
/// the two points: spills, the working set passing a cache size, the number of waves, the
/// achieved occupancy; "not explained by the recorded data" otherwise.
std::string explain_change(const cliff_result& r, const measured_change& c);

/// JSON text of a cliff result (schema roofkit.cliff/1).
std::string to_json_text(const cliff_result& r);
/// Parses a cliff file; usage_error naming `source_name` and what is wrong.
cliff_result parse_cliff(std::string_view text, const std::string& source_name);
/// Reads a cliff file (usage_error when missing or invalid).
cliff_result load_cliff(const std::filesystem::path& path);

/// One row per point (id "cliff_points"): value, launch, registers, predicted and achieved
/// occupancy, limiter, time, spread, rate, % of roof.
table cliff_points_table(const cliff_result& r);
/// One row per event (id "cliff_events"): where, predicted, measured, verdict, cause.
table cliff_events_table(const cliff_result& r);
/// The findings as Markdown (for docs/cliffs.md): a heading, the context line, the events table
/// and the points table.
std::string cliff_markdown(const cliff_result& r, const std::string& source_file);

// ---------------------------------------------------------------------------------------------
// Running a sweep on the GPU

/// How to run a sweep of a registered kernel.
struct cliff_options_run {
  std::string kernel; ///< a registered kernel (kernel_registry)
  sweep_axis axis = sweep_axis::block;
  std::optional<sweep_range> range; ///< default: default_sweep_range, clipped to the kernel
  std::optional<std::int64_t> size; ///< problem size for block/smem/regs sweeps
  int repetitions = 20;
  int warmup = 3;
  bool counters = true;  ///< achieved occupancy and counted bytes (CUPTI)
  bool flush_l2 = false; ///< evict the L2 before every timed repetition
  std::string ptxas_log; ///< `nvcc -Xptxas -v` output for the kernel's variants
  cliff_options detection;
  int device = 0;
  std::string command;
  std::function<void(std::size_t done, std::size_t total, std::int64_t value)> progress;
  std::function<void(const std::string&)> warn; ///< default: stderr
};

/// Runs the sweep: for each value, a fresh instance, one verified run, timed repetitions, the
/// occupancy engine and (when available) the counters. A point that cannot run (no block fits,
/// the kernel does not verify) is kept with its status. Throws usage_error for an unknown kernel,
/// an axis the kernel cannot sweep or an empty range, no_device_error without a GPU.
cliff_result run_cliff_sweep(const cliff_options_run& options);

/// A sweep over a launch parameter of the user's own program: `command` with "{}" replaced by
/// each value, run `repetitions` times per value through /bin/sh.
struct exec_sweep_options {
  std::string command; ///< must contain "{}"
  sweep_axis axis = sweep_axis::block;
  sweep_range range;
  int repetitions = 5;
  /// ECMAScript regex whose first group is the program's own figure (a time or a rate) in its
  /// output; empty: the wall time of the whole process.
  std::string metric_regex;
  bool metric_is_rate = false; ///< the figure is a rate (higher is better), not a time
  double metric_scale = 1;     ///< multiplies the figure into seconds (times) or per second
  std::string metric_unit;     ///< shown on the chart ("s", "GB/s", ...)
  // What the occupancy engine needs about the user's kernel (0: unknown).
  int block = 256;   ///< threads per block when the sweep is not over block
  int registers = 0; ///< registers per thread (from ptxas -v)
  std::int64_t static_smem = 0;
  std::int64_t dynamic_smem = 0;  ///< when the sweep is not over smem
  int cc_major = 9, cc_minor = 0; ///< the architecture for the prediction
  int sm_count = 0;
  cliff_options detection;
  std::function<void(std::size_t done, std::size_t total, std::int64_t value)> progress;
};

/// Runs the program at every value and builds a cliff result whose rate is 1 / time (or the
/// program's rate). A run that exits non-zero or whose output does not match the regex makes
/// its point "error" with the reason. Throws usage_error for a command without "{}", a bad regex
/// or an unknown architecture.
cliff_result run_exec_sweep(const exec_sweep_options& options);

} // namespace roofkit

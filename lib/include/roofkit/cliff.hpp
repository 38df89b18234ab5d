#pragma once
// roofkit/cliff.hpp: occupancy cliffs: where the occupancy engine's prediction steps near a
// launch, and sweeps of one launch parameter that measure them, with their tables and chart.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofkit/occupancy.hpp"
#include "roofkit/plot.hpp"
#include "roofkit/printer.hpp"

// ---- cliffs of a launch ----
// Where the occupancy engine (roofkit/occupancy.hpp) predicts a step: the nearest values of
// registers, shared memory and block size at which the number of resident blocks changes.
namespace roofkit {

/// The nearest values of one parameter at which the number of active blocks changes.
struct occupancy_cliff {
  occupancy_variable variable = occupancy_variable::registers;
  occupancy_point current;
  std::optional<occupancy_point> below; ///< the largest smaller value with other active blocks
  std::optional<occupancy_point> above; ///< the smallest larger value with other active blocks
  std::int64_t headroom = 0; ///< how much the value can grow before the block count changes
  std::int64_t maximum = 0;  ///< the largest valid value of the parameter
  std::string text;          ///< "33 registers: 3 blocks, 75%; at 32 or fewer: ..."
};

/// Cliffs for registers (when known), shared memory and block size, in that order.
std::vector<occupancy_cliff> find_cliffs(const arch_spec& arch, const launch_params& launch);

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

/// The nearest cliff below and above the launch for registers (when known), shared memory and
/// block size, in that order.
std::vector<cliff_line> nearby_cliffs(const arch_spec& arch, const launch_params& launch);

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

/// "cliffs": one row per varied parameter.
std::vector<report_section> cliffs_report(const occupancy_target& target,
                                          const launch_params& launch);

/// "cliffs": the cliffs of every kernel of a ptxas log (launched as ptxas_report launches them).
std::vector<report_section> ptxas_cliffs_report(const std::vector<ptxas_kernel>& kernels,
                                                const occupancy_target& target,
                                                const launch_params& base);

} // namespace roofkit

// ---- cliff sweeps ----
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

// ---- cliff chart ----
// The cliff chart: the predicted occupancy staircase and the measured rate of a sweep on one
// x-axis, every predicted step and measured change marked and said in words. A pure function of
// a cliff result, drawn on the chart canvas (roofkit/plot.hpp); SVG, self-contained HTML, and
// PNG/PDF through cairo.
namespace roofkit {

/// Size and title of a cliff chart.
struct cliff_chart_options {
  std::string title; ///< empty: "<kernel>: <sweep> sweep on <device>"
  double width = 1000;
  double height = 640; ///< grows with the list of events
};

/// Draws the chart. Groups: `g.predicted` (the staircase, right axis, %), `g.achieved` (achieved
/// occupancy markers), `g.measured` (the rate, left axis, one `g.point` per point with data-value,
/// data-rate, data-occupancy and a hover title), `g.predicted-step` and `g.measured-change` (one
/// per event, with data-at and data-verdict), `g.cache-level` (size sweeps: where the working
/// set passes the L1 and the L2), `g.events` (the list under the plot).
canvas draw_cliff_chart(const cliff_result& r, const cliff_chart_options& options = {});

/// The chart as a standalone SVG document.
std::string render_cliff_svg(const cliff_result& r, const cliff_chart_options& options = {});

/// One self-contained HTML page: the chart inline and the events and points tables.
std::string render_cliff_html(const cliff_result& r, const cliff_chart_options& options = {});

/// Writes the chart in the format of the file's extension: .svg, .html, .png or .pdf (PNG and
/// PDF need cairo). usage_error for another extension.
void write_cliff_chart(const cliff_result& r, const std::filesystem::path& path,
                       const cliff_chart_options& options = {});

} // namespace roofkit

#pragma once
// Roofline charts of a run: the data a chart shows (roofs, ridge points, kernel points), the
// log-log axis mapping, and the SVG, HTML and terminal renderings. A chart is a pure function
// of the run: nothing here reads the clock, the machine or the environment.
#include <optional>
#include <string>
#include <vector>

#include "roofkit/chart_canvas.hpp"
#include "roofkit/run.hpp"

namespace roofkit {

/// How kernels are coloured: one colour per topic (a legend of topics) or per kernel (a legend of
/// kernels). Automatic: per kernel up to `max_kernel_legend` plotted kernels, per topic beyond.
enum class chart_colouring { automatic, topic, kernel };

/// What to draw and how large.
struct chart_options {
  std::string title;      ///< empty: "Roofline: <device>"
  double width = 1000;    ///< canvas width, px
  double height = 660;    ///< canvas height, px (grows to fit a long legend)
  bool all_roofs = false; ///< every compute roof of the run, not only the kernels' precisions
  std::vector<memory_level> levels; ///< levels to draw (roofs and points); empty: all
  /// Mark a measured run as RECORDED (replayed from a file, not measured on this machine).
  bool recorded = false;
  chart_colouring colouring = chart_colouring::automatic;
  std::size_t max_kernel_legend = 12; ///< automatic colouring: most kernels coloured one by one
  /// Kernels whose name matches this ECMAScript regex get a label, and only they. Empty: every
  /// kernel when colouring per kernel; otherwise the points that matter (the longest-running
  /// kernels, the furthest below their roof, any above it), at most `max_auto_labels`.
  std::string label_regex;
  std::size_t max_auto_labels = 10;
};

/// One roof line as drawn.
struct chart_roof {
  bool is_memory = false;
  memory_level level = memory_level::dram; ///< when is_memory
  std::vector<precision> precisions;       ///< when !is_memory: roofs of equal value share a line
  double value = 0;                        ///< bytes/s or FLOP/s
  ceiling_source source = ceiling_source::theoretical;
  /// A theoretical roof drawn faintly beside the measured roof of the same level/precision.
  bool reference = false;
  std::string label;       ///< on the chart: "DRAM 3.02 TB/s (3.35 TB/s theoretical)"
  std::string short_label; ///< when the label does not fit: "DRAM 3.02 TB/s"
  std::string key;         ///< with the source: "DRAM 3.02 TB/s measured (3.35 TB/s theoretical)"
  std::string detail;      ///< hover text: source, method, clocks
};

/// Where a primary memory roof meets a primary compute roof.
struct chart_ridge {
  memory_level level = memory_level::dram;
  precision prec = precision::fp32;
  double intensity = 0; ///< FLOP/byte
  double flops = 0;     ///< FLOP/s (the compute roof)
};

/// One kernel at one memory level.
struct chart_point {
  memory_level level = memory_level::dram;
  double bytes = 0;
  double intensity = 0;   ///< total FLOPs / bytes at this level
  double attainable = 0;  ///< FLOP/s this level's roof and the compute roof allow
  double pct_of_roof = 0; ///< 100 * achieved / attainable at this level (0 when unknown)
  std::string tip;        ///< hover text: kernel, level, intensity, achieved, % of roof, bound,
                          ///< occupancy
};

/// A kernel as drawn: same performance (y) at every level, one point per level.
struct chart_kernel {
  std::size_t run_index = 0;         ///< index in run::kernels
  std::string name;                  ///< full name
  std::string label;                 ///< shortened for the chart
  std::string topic;                 ///< the run's topic, else the name up to '/', else "other"
  std::string color;                 ///< "#rrggbb" (its topic's colour when colouring by topic)
  bool labelled = true;              ///< drawn with its label (see chart_options::label_regex)
  bool overhead_dominated = false;   ///< launch overhead dominates its time: rates are bounds
  double flops = 0;                  ///< total FLOPs over all precisions
  double time_s = 0;                 ///< median time
  double flops_per_s = 0;            ///< achieved, flops / time_s
  std::optional<precision> dominant; ///< the precision with the most FLOPs
  std::vector<chart_point> points;   ///< by ascending intensity
  std::string bound;                 ///< binding roof, e.g. "DRAM", "FP32"; empty when unknown
  double attainable = 0;             ///< FLOP/s the roofs allow at this kernel's intensities
  double pct_of_roof = 0;            ///< 100 * achieved / attainable (0 when unknown)
  std::string compute_roof;          ///< the roof of its own precision mix: "FP64 33.5 TFLOP/s"
  std::optional<double> occupancy_theoretical; ///< 0..1
  std::optional<double> occupancy_achieved;    ///< 0..1
  std::string tooltip;                         ///< hover text with the kernel's numbers
};

/// A kernel that moves data but does no FLOPs, drawn in the bandwidth view.
struct chart_bandwidth_kernel {
  std::size_t run_index = 0;
  std::string name, label, topic, color;
  double time_s = 0;
  bool overhead_dominated = false;
  std::optional<double> occupancy_achieved;
  /// One bar per level with bytes: achieved bandwidth against the level's roof.
  struct bar {
    memory_level level = memory_level::dram;
    double bytes = 0;
    double achieved = 0;    ///< bytes/s
    double roof = 0;        ///< the level's roof, bytes/s (0 when the run has none)
    double pct_of_roof = 0; ///< 100 * achieved / roof (0 when unknown)
    std::string tip;        ///< hover text
  };
  std::vector<bar> bars;
};

/// A topic of the plotted kernels (the unit of colour when colouring by topic).
struct chart_topic {
  std::string name;
  std::string color;
  std::size_t plotted = 0;   ///< kernels in the roofline chart
  std::size_t data_only = 0; ///< kernels in the bandwidth view
};

/// A kernel of the run that is not drawn, and why (failed, no FLOPs, no time, no bytes).
struct chart_excluded {
  std::size_t run_index = 0;
  std::string name;
  std::string reason;
  bool no_flops = false; ///< moves data only: counted in one line, not listed
};

/// Everything a roofline chart shows, computed from a run.
struct roofline_chart_data {
  std::string title;
  std::vector<chart_roof> roofs; ///< memory roofs first, then compute roofs by value
  std::vector<chart_ridge> ridges;
  std::vector<chart_kernel> kernels;
  std::vector<chart_excluded> excluded;          ///< not in the roofline chart (data-only ones too)
  std::vector<chart_bandwidth_kernel> data_only; ///< kernels without FLOPs: the bandwidth view
  std::size_t no_flops = 0; ///< every kernel without FLOPs (data_only and those without bytes)
  std::vector<chart_topic> topics;   ///< in the order of the run
  bool by_topic = false;             ///< colours (and the legend) are per topic
  double x_min = 0.01, x_max = 1000; ///< intensity range, FLOP/byte (ends: 1, 2 or 5 x 10^k)
  double y_min = 1e9, y_max = 1e15;  ///< performance range, FLOP/s (ends: 1, 2 or 5 x 10^k)
  std::vector<std::string> footer;   ///< device and clocks, origin, tool version
  std::string origin_badge;          ///< "ANALYTICAL", "RECORDED", "IMPORTED"; empty if measured
  std::string origin_text;           ///< one sentence on where the numbers come from
};

/// Builds the chart data of a run: roofs (measured preferred, theoretical shown as reference),
/// ridge points, one point per kernel and level, exclusions, axis ranges.
roofline_chart_data make_roofline_data(const run& r, const chart_options& options = {});

/// A logarithmic axis: value v maps to
///   px = px_lo + (log10(v) - log10(lo)) / (log10(hi) - log10(lo)) * (px_hi - px_lo).
/// For the x axis px_lo is the plot's left edge and px_hi its right edge; for the y axis px_lo
/// is the bottom edge and px_hi the top edge (SVG y grows downwards).
struct log_axis {
  double lo = 1, hi = 10;
  double px_lo = 0, px_hi = 1;
  double to_px(double v) const;
  double from_px(double px) const;
};

/// The plot area of a drawn chart and its axes (also written into the SVG as data-* attributes
/// of the element with id "plot-area": data-left/top/width/height, data-x-min/max,
/// data-y-min/max).
struct chart_frame {
  double left = 0, top = 0, width = 0, height = 0;
  log_axis x, y;
};

/// Draws the bandwidth view of the kernels without FLOPs: one panel per memory level, one bar
/// per kernel with its achieved bandwidth against the level's roof (a vertical line, solid when
/// measured, dashed when theoretical, labelled with its value and clock). Bars are
/// `<rect class="bar" data-kernel="kN" data-level=... data-achieved=... data-roof=...>`.
canvas draw_bandwidth(const roofline_chart_data& data, const chart_options& options = {});
/// The bandwidth view as a standalone SVG document.
std::string render_bandwidth_svg(const run& r, const chart_options& options = {});
/// The bandwidth view in text: one line per kernel and level with a bar of its % of roof.
std::string render_bandwidth_terminal(const run& r, const chart_options& options = {},
                                      int columns = 80);

/// Draws a roofline chart. Measured roofs are solid lines, theoretical roofs dashed, and a
/// theoretical roof beside a measured one thin and grey (roof lines: `class="roof"`, with
/// data-value and data-source). Each kernel is a group `<g class="kernel" id="kN">` (N = index in
/// the run) holding its markers (`class="point"`, `data-level`, `data-intensity`,
/// `data-flops-per-s`, drawn at `transform="translate(x y)"`); every label carries
/// `data-quad="x,y x,y x,y x,y"`, its footprint in pixels.
canvas draw_roofline(const roofline_chart_data& data, const chart_options& options = {},
                     chart_frame* frame = nullptr);

/// The roofline chart of a run as a standalone SVG document.
std::string render_roofline_svg(const run& r, const chart_options& options = {});

/// One self-contained HTML page (no network access at all): the chart inline (and the bandwidth
/// view when kernels without FLOPs exist), a search box, a hover box per point (kernel, level,
/// intensity, achieved, % of roof, bound, occupancy), legend entries that hide or show a topic
/// or a level, a sortable table of every kernel, and hover links between rows and points.
std::string render_roofline_html(const run& r, const chart_options& options = {});

/// Terminal rendering options.
struct terminal_options {
  int columns = 80;   ///< total width, at least 60
  int rows = 20;      ///< height of the plot area in text rows
  bool color = false; ///< ANSI colours (use only when stdout is a terminal)
  /// Appended to the one-line count of kernels without FLOPs (where the caller says how to see
  /// them, e.g. a flag); empty: "see the bandwidth view".
  std::string bandwidth_hint;
};

/// A braille chart of the same content that fits `columns`, followed by a key of kernels,
/// roofs and excluded kernels.
std::string render_roofline_terminal(const run& r, const chart_options& options = {},
                                     const terminal_options& terminal = {});

/// Options of the before/after chart.
struct compare_chart_options {
  chart_options chart;
  /// The level whose points the arrows join; a kernel without it uses its highest-intensity
  /// level. nullopt: DRAM.
  std::optional<memory_level> level;
};

/// A before/after chart: the roofs of `after`, and per kernel present in both runs an arrow from
/// its before point (hollow) to its after point (filled), labelled with the speed-up. Kernels
/// match as in compare_runs(): the i-th kernel of a name in `before` with the i-th kernel of
/// that name in `after`. Kernels in only one run are single points labelled "(before only)" or
/// "(after only)".
canvas draw_compare(const run& before, const run& after, const compare_chart_options& options = {},
                    chart_frame* frame = nullptr);
/// draw_compare as a standalone SVG document.
std::string render_compare_svg(const run& before, const run& after,
                               const compare_chart_options& options = {});

/// A value with an SI prefix and 3 significant digits: format_si(3.352e12, "B/s") == "3.35 TB/s".
std::string format_si(double value, const std::string& unit);
/// The kernel colour palette (colour-blind safe order); colour i of a run's kernels.
const std::string& kernel_color(std::size_t i);
/// The topic colour palette (16 colours, distinct on white); colour i of a run's topics.
const std::string& topic_color(std::size_t i);
/// The marker drawn for each memory level (DRAM circle, L2 square, L1 triangle).
marker_shape level_marker(memory_level l);

} // namespace roofkit

#pragma once
// roofkit/plot.hpp: charts: the canvas and its back ends, roofline, bandwidth, compare and
// occupancy charts (the cliff chart, drawn on this canvas, is in roofkit/cliff.hpp).

#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "roofkit/occupancy.hpp"
#include "roofkit/run.hpp"

// ---- chart canvas ----
// A small retained-mode drawing surface shared by every chart. Charts draw into a canvas in
// pixel coordinates (origin top-left, y down); back ends turn it into SVG or, with cairo, into
// PNG/PDF. Groups carry an id, classes, data attributes and a hover title (SVG/HTML only).
namespace roofkit {

/// A point in canvas pixels.
struct point2 {
  double x = 0;
  double y = 0;
};

/// How a shape is stroked and filled. Colours are "#rrggbb" or "none".
struct paint {
  std::string stroke = "none";
  std::string fill = "none";
  double stroke_width = 1;
  std::string dash;   ///< SVG dash array ("4 3"), empty for solid
  double opacity = 1; ///< applies to stroke and fill
};

/// Marker shapes; the roofline chart uses one per memory level.
enum class marker_shape { circle, square, triangle, diamond };

/// Horizontal placement of text relative to its anchor point.
enum class text_anchor { start, middle, end };

/// How text is drawn. The anchor point is on the baseline.
struct text_style {
  double size = 11;
  bool bold = false;
  text_anchor anchor = text_anchor::start;
  std::string color = "#222222";
  double rotate_deg = 0; ///< clockwise, around the anchor point (SVG convention)
  bool halo = false;     ///< a white outline under the glyphs, for text over lines
};

/// Extra SVG attributes of an element: id, class, data-* ... (ignored by raster back ends).
using attributes = std::vector<std::pair<std::string, std::string>>;

/// One drawing command.
struct draw_line {
  point2 a, b;
  paint p;
  attributes attrs;
};
struct draw_polyline {
  std::vector<point2> points;
  paint p;
  bool closed = false;
  attributes attrs;
};
struct draw_rect {
  double x = 0, y = 0, w = 0, h = 0;
  paint p;
  double corner_radius = 0;
  attributes attrs;
};
struct draw_marker {
  marker_shape shape = marker_shape::circle;
  point2 at;
  double size = 9; ///< width of the marker's bounding square
  paint p;
  attributes attrs;
};
struct draw_text {
  point2 at;
  std::string text;
  text_style style;
  attributes attrs;
};
struct begin_group {
  attributes attrs;
  std::string title; ///< hover text (SVG <title>); may hold several lines
};
struct end_group {};

using draw_item = std::variant<draw_line, draw_polyline, draw_rect, draw_marker, draw_text,
                               begin_group, end_group>;

/// The drawing surface: a list of commands in paint order.
class canvas {
public:
  /// A canvas of the given size in pixels (CSS px; 1 px = 0.75 pt in PDF).
  canvas(double width, double height) : width_(width), height_(height) {}
  double width() const { return width_; }
  double height() const { return height_; }
  /// Changes the height (charts grow to fit long legends).
  void set_height(double h) { height_ = h; }

  void line(point2 a, point2 b, paint p, attributes attrs = {});
  void polyline(std::vector<point2> points, paint p, attributes attrs = {});
  void polygon(std::vector<point2> points, paint p, attributes attrs = {});
  void rect(double x, double y, double w, double h, paint p, attributes attrs = {},
            double corner_radius = 0);
  void marker(marker_shape shape, point2 at, double size, paint p, attributes attrs = {});
  void text(point2 at, std::string s, text_style style, attributes attrs = {});
  /// Opens a group; every group must be closed with end().
  void begin(attributes attrs, std::string title = {});
  void end();

  const std::vector<draw_item>& items() const { return items_; }

private:
  double width_;
  double height_;
  std::vector<draw_item> items_;
  int open_groups_ = 0;
};

/// Advance width in pixels of `s` (UTF-8) set in DejaVu Sans at `size` px, from the font's
/// metrics (the font every back end asks for first). Unknown characters count as 1 em.
double text_width(std::string_view s, double size, bool bold = false);
/// Ascent and descent of DejaVu Sans per px of font size.
inline constexpr double font_ascent = 0.928;
inline constexpr double font_descent = 0.236;

/// The font-family list every back end uses.
inline constexpr std::string_view chart_font_family = "DejaVu Sans, Bitstream Vera Sans, "
                                                      "Verdana, Arial, sans-serif";

/// SVG output options.
struct svg_options {
  /// A standalone document (XML declaration, xmlns). Off for SVG inlined into HTML, which then
  /// holds no URL at all.
  bool standalone = true;
  /// Extra attributes of the root <svg> element (id, class).
  attributes root_attrs;
  /// CSS placed in a <style> element inside the SVG (may be empty).
  std::string css;
};

/// The canvas as SVG text.
std::string to_svg(const canvas& c, const svg_options& options = {});

/// Escapes &, <, >, " and ' for XML text and attribute values.
std::string xml_escape(std::string_view s);

/// True when this build renders PNG and PDF itself (cairo was found at configure time).
bool cairo_available();

/// Writes the canvas as PNG (scale: device pixels per canvas pixel) or PDF through cairo.
/// Without cairo, throws a usage error whose hint says how to convert the SVG instead.
void write_png(const canvas& c, const std::filesystem::path& path, double scale = 2.0);
void write_pdf(const canvas& c, const std::filesystem::path& path);

} // namespace roofkit

// ---- chart layout ----
// Geometry for chart layout: convex quadrilaterals (label footprints, possibly rotated),
// intersection tests, and a greedy label placer that keeps labels clear of each other, of
// lines and of markers, drawing a leader line when a label had to move away from its point.
namespace roofkit {

/// A convex quadrilateral, corners in order (axis-aligned boxes and rotated text boxes).
struct quad {
  std::array<point2, 4> corners;
};

/// The axis-aligned box [x0, x1] x [y0, y1].
quad box_quad(double x0, double y0, double x1, double y1);
/// The footprint of a text line whose baseline starts at `origin` (text-anchor start), rotated
/// clockwise by `rotate_deg`: `width` along the baseline, ascent above, descent below.
quad text_quad(point2 origin, double width, double size, double rotate_deg = 0);
/// The quad grown by `margin` pixels on every side (each corner moves out along its two edges).
quad inflate(const quad& q, double margin);

/// True when the two convex quads share any point (separating-axis test).
bool intersects(const quad& a, const quad& b);
/// True when the segment a-b touches the quad.
bool intersects(const quad& q, point2 a, point2 b);
/// True when segments a-b and c-d cross or touch.
bool segments_intersect(point2 a, point2 b, point2 c, point2 d);
/// The point of the quad nearest to p (p itself when inside).
point2 nearest_point(const quad& q, point2 p);
/// Euclidean distance.
double distance(point2 a, point2 b);

/// A label placed by label_placer.
struct placed_label {
  quad box;            ///< the label's footprint (axis-aligned)
  bool leader = false; ///< true when a leader line joins the label to its point
  point2 leader_from;  ///< on the marker's edge
  point2 leader_to;    ///< on the label box
};

/// Greedy label placement. Obstacles are boxes and segments; every placed label becomes an
/// obstacle for the next. Labels stay inside the bounds.
class label_placer {
public:
  /// Labels must lie inside [x0, x1] x [y0, y1].
  label_placer(double x0, double y0, double x1, double y1);
  /// Something labels must not touch.
  void add_obstacle(const quad& q);
  void add_obstacle(point2 a, point2 b);
  /// True when `q` is inside the bounds and touches no obstacle.
  bool is_free(const quad& q) const;
  /// Marks `q` as taken by a label (leader lines will not cross it either).
  void occupy(const quad& q);
  /// Places a w x h box as close to `anchor` as it can (preferring the right, then above):
  /// first right next to the point (`gap` pixels away), then further out up to `max_distance`,
  /// with a leader line from the point's edge (`marker_radius` from its centre) that crosses no
  /// other label. With max_distance <= gap only the places next to the point are tried.
  /// Returns nullopt when no place is free.
  std::optional<placed_label> place(point2 anchor, double w, double h, double gap,
                                    double marker_radius, double max_distance);

  /// Places labels for a cluster of points as one or more neat columns beside it, ordered by
  /// the points' height, each joined to its point by a leader line. `widths[i]` is the width of
  /// the label of `anchors[i]`; all labels are `h` high. Entries are nullopt when no column fits.
  std::vector<std::optional<placed_label>> place_stack(const std::vector<point2>& anchors,
                                                       const std::vector<double>& widths, double h,
                                                       double marker_radius);

private:
  struct stack;  // a cluster of points to label as one column
  struct column; // a candidate column beside it
  bool leader_is_clear(point2 a, point2 b) const;
  std::optional<double> column_score(const stack& s, bool right, double edge, double top) const;
  column best_column(const stack& s) const;
  std::vector<std::optional<placed_label>> split_stack(const stack& s);
  double x0_, y0_, x1_, y1_;
  std::vector<quad> boxes_;
  std::vector<std::array<point2, 2>> segments_;
  std::vector<std::size_t> label_boxes_; ///< indices into boxes_ of labels placed here
};

} // namespace roofkit

// ---- chart ----
// Roofline charts of a run: the data a chart shows (roofs, ridge points, kernel points), the
// log-log axis mapping, and the SVG, HTML and terminal renderings. A chart is a pure function
// of the run: nothing here reads the clock, the machine or the environment.
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

// ---- plot ----
// Writing charts to files: the format from the file name, PNG/PDF through cairo when this build
// has it (otherwise a usage error with a hint to convert the SVG).
namespace roofkit {

/// The chart formats the plot module writes.
enum class chart_format { svg, html, png, pdf, terminal };

/// "svg", "html", "png", "pdf", "term".
std::string to_string(chart_format f);
/// Parses a format name ("svg", "html"/"htm", "png", "pdf", "term"/"terminal"); nullopt if unknown.
std::optional<chart_format> parse_chart_format(const std::string& name);
/// The format implied by a file's extension; usage_error naming the file and the valid
/// extensions otherwise.
chart_format chart_format_for_path(const std::filesystem::path& path);

/// Writes a drawn chart to `path` as SVG, PNG or PDF (PNG and PDF need cairo); usage_error for
/// any other format.
void write_canvas(const canvas& c, const std::filesystem::path& path, chart_format format);

/// Writes the roofline chart of a run to `path` in `format` (not terminal). PNG and PDF need
/// cairo (cairo_available()); without it a usage error says how to convert the SVG instead.
void write_roofline_chart(const run& r, const std::filesystem::path& path, chart_format format,
                          const chart_options& options = {});

/// Writes the bandwidth view of the kernels without FLOPs (svg, png, pdf; html writes the
/// roofline page, which holds the bandwidth view too).
void write_bandwidth_chart(const run& r, const std::filesystem::path& path, chart_format format,
                           const chart_options& options = {});

/// Writes the before/after chart to `path` (svg, png or pdf; html embeds the SVG chart).
void write_compare_chart(const run& before, const run& after, const std::filesystem::path& path,
                         chart_format format, const compare_chart_options& options = {});

} // namespace roofkit

// ---- occupancy chart ----
// Charts of occupancy sweeps (roofkit/occupancy.hpp): a terminal (ASCII) chart, and the sweeps
// drawn on the canvas (SVG, HTML, PNG, PDF).
namespace roofkit {

/// "Active warps per SM vs block size" (the chart's title for a variable).
std::string sweep_title(occupancy_variable v);
/// The x-axis label: "threads per block", "registers per thread", ...
std::string sweep_axis_label(occupancy_variable v);

/// An ASCII chart of active warps against the swept value, the current launch marked with '@'
/// in its column and '^' under the axis. `width` and `height` count character cells.
std::string sweep_terminal_chart(const occupancy_sweep& sweep, int width = 64, int height = 10);

/// A panel per sweep (step line of active warps, occupancy on the right axis, the current launch
/// marked and labelled, hover titles), `caption` as the footer.
canvas draw_occupancy_sweeps(const std::vector<occupancy_sweep>& sweeps, const std::string& title,
                             const std::string& caption);
/// draw_occupancy_sweeps() as a standalone SVG document.
std::string sweeps_svg(const std::vector<occupancy_sweep>& sweeps, const std::string& title,
                       const std::string& caption);
/// Writes draw_occupancy_sweeps() to `path` in the format its extension names (.svg, .html, .png,
/// .pdf; PNG and PDF need cairo); usage_error for any other extension.
void write_occupancy_sweeps(const std::vector<occupancy_sweep>& sweeps, const std::string& title,
                            const std::string& caption, const std::filesystem::path& path);

} // namespace roofkit

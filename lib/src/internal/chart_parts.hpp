#pragma once
// Pieces shared by the charts drawn on the canvas: roofline, compare, HTML, terminal (lib/src/plot)
// and cliff (lib/src/cliff). Not public.
#include <string>
#include <vector>

#include "roofkit/plot.hpp"
#include "roofkit/run.hpp"

namespace roofkit::chart_detail {

/// The size of a kernel's marker on the roofline and compare charts, in pixels.
inline constexpr double marker_size = 9;

/// "FLOP/s", or "OP/s" for integer tensor operations.
std::string rate_unit(precision p);
/// A kernel name fit for a label: no "void ", no argument list, at most `max_chars` characters.
std::string short_name(const std::string& name, std::size_t max_chars = 28);
/// Shortens `s` with a trailing ellipsis until it is at most `max_px` wide.
std::string fit_text(const std::string& s, double size, double max_px, bool bold = false);
/// The words of `s`, a number glued to the word after it (its unit).
std::vector<std::string> glued_words(const std::string& s);
/// Splits `s` into lines at most `max_px` wide (at spaces, never between a number and its unit).
std::vector<std::string> wrap_text(const std::string& s, double size, double max_px);
/// 3 significant digits without an exponent between 0.001 and 1e6 ("1365", "0.125", "21.2").
std::string format_number(double v);
/// "219 µs", "1.20 ms", "2.50 s".
std::string format_time(double seconds);
/// A range [lo, hi] whose ends are 1, 2 or 5 times a power of ten, covering [min_v, max_v]
/// with a margin (in decades) on both sides and spanning at least `min_decades`.
void nice_log_range(double min_v, double max_v, double margin_decades, double min_decades,
                    double& lo, double& hi);
/// A linear tick step of 1, 2 or 5 x 10^k giving about `target` ticks over `span` (> 0).
double nice_step(double span, int target);
/// The tick label of a decade on the x axis ("0.01", "1", "1000", "10k") or y axis ("100 G").
std::string x_tick_label(double v);
std::string y_tick_label(double v);

/// How a roof line is stroked: measured solid, theoretical dashed, reference thin grey dots.
paint roof_paint(const chart_roof& r);
/// Draws axes, grid, ticks and axis titles for the frame.
void draw_axes(canvas& c, const chart_frame& f);
/// Draws the roofs and ridge markers and adds them to the placer as obstacles.
void draw_roofs(canvas& c, const roofline_chart_data& d, const chart_frame& f,
                label_placer& placer);
/// Places and draws the roof labels along their lines (after every marker is an obstacle);
/// returns the roofs for which no place was free (the legend lists them).
std::vector<const chart_roof*> place_roof_labels(canvas& c, const roofline_chart_data& d,
                                                 const chart_frame& f, label_placer& placer);
/// Draws the title row with the origin badge.
void draw_title(canvas& c, const roofline_chart_data& d, double left, double right);
/// Draws the footer lines from `top`, wrapped to `width`; returns the y below the last line.
double draw_footer(canvas& c, const roofline_chart_data& d, double left, double top, double width);
/// The footer height for the given width.
double footer_height(const roofline_chart_data& d, double width);
/// The plot frame left of the legend column (x from 84 to legend_x - 24, y from `top` down to
/// the footer area of a canvas `height` high), with the data's log axes.
chart_frame plot_frame(const roofline_chart_data& d, double legend_x, double top, double height,
                       double footer_h);
/// A canvas with the background, title and axes drawn, the "plot-area" group opened (with the
/// frame and axis ranges as data attributes) and the roofs drawn as obstacles in `placer`.
canvas open_plot(const roofline_chart_data& d, const chart_frame& f, double width, double height,
                 label_placer& placer);
/// The legend column at the right of a chart. With a null canvas it only measures.
class legend_writer {
public:
  legend_writer(canvas* c, double x, double y, double width) : c_(c), x_(x), y_(y), w_(width) {}
  void header(const std::string& text, const std::string& color = "#222222");
  /// A kernel: a short line in its colour with a marker, then its name.
  void kernel(const std::string& color, const std::string& text, const std::string& kernel_id,
              const std::string& title, bool hollow = false);
  void marker(marker_shape shape, const std::string& text, const attributes& group = {});
  /// A topic: a swatch in its colour, then its name; a toggle in the HTML page.
  void topic(const std::string& color, const std::string& text, const std::string& topic);
  void stroke(const paint& p, const std::string& text);
  /// Wrapped text.
  void note(const std::string& text, const std::string& color = "#444444", double size = 10);
  void gap(double h = 8) { y_ += h; }
  double bottom() const { return y_; }

private:
  canvas* c_;
  double x_, y_, w_;
};

/// The "Roofs" legend block: a header, one line per kind of roof present (measured and
/// theoretical labels end with `suffix`), the ridge point marker and the unlabelled roofs.
void legend_roofs(legend_writer& lg, const std::vector<chart_roof>& roofs,
                  const std::string& suffix, const std::vector<const chart_roof*>& unlabelled);

/// The SVG attributes of a label whose footprint is `q`.
attributes quad_attrs(const quad& q, const std::string& cls);

} // namespace roofkit::chart_detail

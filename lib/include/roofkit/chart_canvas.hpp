#pragma once
// A small retained-mode drawing surface shared by every chart. Charts draw into a canvas in
// pixel coordinates (origin top-left, y down); back ends turn it into SVG or, with cairo, into
// PNG/PDF. Groups carry an id, classes, data attributes and a hover title (SVG/HTML only).
#include <array>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

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

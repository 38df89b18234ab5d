#pragma once
// A small SVG writer for the occupancy charts: shapes, text and hover titles. Escaping is the
// plot module's xml_escape (chart_canvas.hpp).
#include <string>
#include <string_view>
#include <vector>

namespace roofkit::svg {

/// Builds one SVG document in memory.
class writer {
public:
  writer(double width, double height);
  /// <rect>; `fill`/`stroke` are CSS colours ("none" allowed).
  void rect(double x, double y, double w, double h, std::string_view fill,
            std::string_view stroke = "none", double stroke_width = 1);
  void line(double x1, double y1, double x2, double y2, std::string_view stroke,
            double stroke_width = 1, std::string_view dash = {});
  /// An open polyline through the points (x0, y0, x1, y1, ...).
  void polyline(const std::vector<double>& xy, std::string_view stroke, double stroke_width = 1.5,
                std::string_view fill = "none");
  /// A circle with an optional hover title.
  void circle(double cx, double cy, double r, std::string_view fill, std::string_view title = {});
  /// Text; anchor is "start", "middle" or "end".
  void text(double x, double y, std::string_view content, double size = 12,
            std::string_view anchor = "start", std::string_view fill = "#222", bool bold = false,
            double rotate = 0);
  /// The finished document.
  std::string str() const;

private:
  double width_;
  double height_;
  std::string body_;
};

} // namespace roofkit::svg

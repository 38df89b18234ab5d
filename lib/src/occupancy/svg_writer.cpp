#include "svg_writer.hpp"

#include <fmt/format.h>

#include "roofkit/chart_canvas.hpp"

namespace roofkit::svg {

writer::writer(double width, double height) : width_(width), height_(height) {}

void writer::rect(double x, double y, double w, double h, std::string_view fill,
                  std::string_view stroke, double stroke_width) {
  body_ += fmt::format(R"svg(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" )svg"
                       R"svg(fill="{}" stroke="{}" stroke-width="{}"/>)svg"
                       "\n",
                       x, y, w, h, xml_escape(fill), xml_escape(stroke), stroke_width);
}

void writer::line(double x1, double y1, double x2, double y2, std::string_view stroke,
                  double stroke_width, std::string_view dash) {
  body_ +=
      fmt::format(R"svg(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="{}" )svg"
                  R"svg(stroke-width="{}"{}/>)svg"
                  "\n",
                  x1, y1, x2, y2, xml_escape(stroke), stroke_width,
                  dash.empty() ? std::string()
                               : fmt::format(R"svg( stroke-dasharray="{}")svg", xml_escape(dash)));
}

void writer::polyline(const std::vector<double>& xy, std::string_view stroke, double stroke_width,
                      std::string_view fill) {
  std::string points;
  for (std::size_t i = 0; i + 1 < xy.size(); i += 2)
    points += fmt::format("{}{:.1f},{:.1f}", i ? " " : "", xy[i], xy[i + 1]);
  body_ += fmt::format(R"svg(<polyline points="{}" fill="{}" stroke="{}" stroke-width="{}" )svg"
                       R"svg(stroke-linejoin="round"/>)svg"
                       "\n",
                       points, xml_escape(fill), xml_escape(stroke), stroke_width);
}

void writer::circle(double cx, double cy, double r, std::string_view fill, std::string_view title) {
  if (title.empty())
    body_ += fmt::format(R"svg(<circle cx="{:.1f}" cy="{:.1f}" r="{}" fill="{}"/>)svg"
                         "\n",
                         cx, cy, r, xml_escape(fill));
  else
    body_ +=
        fmt::format(R"svg(<circle cx="{:.1f}" cy="{:.1f}" r="{}" fill="{}"><title>{}</title>)svg"
                    "</circle>\n",
                    cx, cy, r, xml_escape(fill), xml_escape(title));
}

void writer::text(double x, double y, std::string_view content, double size,
                  std::string_view anchor, std::string_view fill, bool bold, double rotate) {
  body_ += fmt::format(
      R"svg(<text x="{:.1f}" y="{:.1f}" font-size="{}" text-anchor="{}" fill="{}"{}{}>{}</text>)svg"
      "\n",
      x, y, size, xml_escape(anchor), xml_escape(fill), bold ? R"svg( font-weight="bold")svg" : "",
      rotate != 0 ? fmt::format(R"svg( transform="rotate({} {:.1f} {:.1f})")svg", rotate, x, y)
                  : std::string(),
      xml_escape(content));
}

std::string writer::str() const {
  return fmt::format(
      R"svg(<?xml version="1.0" encoding="UTF-8"?>)svg"
      "\n"
      R"svg(<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" )svg"
      R"svg(viewBox="0 0 {0} {1}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">)svg"
      "\n"
      R"svg(<rect width="100%" height="100%" fill="white"/>)svg"
      "\n{2}</svg>\n",
      width_, height_, body_);
}

} // namespace roofkit::svg

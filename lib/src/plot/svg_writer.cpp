#include <cmath>
#include <string>

#include <fmt/format.h>

#include "plot_util.hpp"
#include "roofkit/plot.hpp"

namespace roofkit {

std::string xml_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&#39;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

std::string marker_path(marker_shape shape, double size) {
  const double r = size / 2;
  switch (shape) {
  case marker_shape::circle:
    return fmt::format("M{0},0A{0},{0} 0 1,1 -{0},0A{0},{0} 0 1,1 {0},0Z", num(r));
  case marker_shape::square:
    return fmt::format("M-{0},-{0}H{0}V{0}H-{0}Z", num(r * 0.9));
  case marker_shape::triangle: {
    // Equilateral, centred on its centroid, a little larger so it reads as big as a circle.
    const double s = r * 1.25;
    return fmt::format("M0,{}L{},{}L{},{}Z", num(-s), num(s * 0.866), num(s * 0.5), num(-s * 0.866),
                       num(s * 0.5));
  }
  case marker_shape::diamond:
    return fmt::format("M0,-{0}L{0},0L0,{0}L-{0},0Z", num(r));
  }
  return {};
}

namespace {

std::string attrs_text(const attributes& attrs) {
  std::string out;
  for (const auto& [k, v] : attrs) {
    // A newline kept as a reference survives attribute-value normalisation in XML parsers.
    std::string value;
    for (char ch : xml_escape(v))
      value += ch == '\n' ? std::string("&#10;") : std::string(1, ch);
    out += fmt::format(" {}=\"{}\"", k, value);
  }
  return out;
}

std::string paint_text(const paint& p) {
  std::string out = fmt::format(" stroke=\"{}\" fill=\"{}\"", p.stroke, p.fill);
  if (p.stroke != "none" && p.stroke_width != 1)
    out += fmt::format(" stroke-width=\"{}\"", num(p.stroke_width));
  if (!p.dash.empty())
    out += fmt::format(" stroke-dasharray=\"{}\"", p.dash);
  if (p.opacity < 1)
    out += fmt::format(" opacity=\"{}\"", num(p.opacity));
  return out;
}

std::string points_text(const std::vector<point2>& pts) {
  std::string out;
  for (const auto& p : pts) {
    if (!out.empty())
      out += ' ';
    out += num(p.x) + "," + num(p.y);
  }
  return out;
}

struct svg_visitor {
  std::string& out;
  int depth = 1;

  void indent() { out.append(static_cast<std::size_t>(depth) * 2, ' '); }

  void operator()(const draw_line& l) {
    indent();
    out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"{}{}/>\n", num(l.a.x),
                       num(l.a.y), num(l.b.x), num(l.b.y), paint_text(l.p), attrs_text(l.attrs));
  }
  void operator()(const draw_polyline& l) {
    indent();
    out += fmt::format("<{} points=\"{}\"{}{}/>\n", l.closed ? "polygon" : "polyline",
                       points_text(l.points), paint_text(l.p), attrs_text(l.attrs));
  }
  void operator()(const draw_rect& r) {
    indent();
    std::string corner;
    if (r.corner_radius > 0)
      corner = fmt::format(" rx=\"{}\"", num(r.corner_radius));
    out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"{}{}{}/>\n", num(r.x),
                       num(r.y), num(r.w), num(r.h), corner, paint_text(r.p), attrs_text(r.attrs));
  }
  void operator()(const draw_marker& m) {
    indent();
    out += fmt::format("<path transform=\"translate({} {})\" d=\"{}\"{}{}/>\n", num(m.at.x),
                       num(m.at.y), marker_path(m.shape, m.size), paint_text(m.p),
                       attrs_text(m.attrs));
  }
  void operator()(const draw_text& t) {
    indent();
    const char* anchor = t.style.anchor == text_anchor::start    ? "start"
                         : t.style.anchor == text_anchor::middle ? "middle"
                                                                 : "end";
    std::string extra;
    if (t.style.anchor != text_anchor::start)
      extra += fmt::format(" text-anchor=\"{}\"", anchor);
    if (t.style.bold)
      extra += " font-weight=\"bold\"";
    if (t.style.rotate_deg != 0)
      extra += fmt::format(" transform=\"rotate({} {} {})\"", num(t.style.rotate_deg), num(t.at.x),
                           num(t.at.y));
    if (t.style.halo)
      extra += " stroke=\"#ffffff\" stroke-width=\"3\" stroke-linejoin=\"round\" "
               "paint-order=\"stroke\"";
    out += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{}\"{}{}>{}</text>\n",
                       num(t.at.x), num(t.at.y), num(t.style.size), t.style.color, extra,
                       attrs_text(t.attrs), xml_escape(t.text));
  }
  void operator()(const begin_group& g) {
    indent();
    out += fmt::format("<g{}>\n", attrs_text(g.attrs));
    ++depth;
    if (!g.title.empty()) {
      indent();
      out += fmt::format("<title>{}</title>\n", xml_escape(g.title));
    }
  }
  void operator()(const end_group&) {
    --depth;
    indent();
    out += "</g>\n";
  }
};

} // namespace

std::string to_svg(const canvas& c, const svg_options& options) {
  std::string out;
  if (options.standalone)
    out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<svg";
  if (options.standalone)
    out += " xmlns=\"http://www.w3.org/2000/svg\"";
  out += fmt::format(" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\"", num(c.width()),
                     num(c.height()));
  out += fmt::format(" font-family=\"{}\"{}>\n", xml_escape(chart_font_family),
                     attrs_text(options.root_attrs));
  if (!options.css.empty())
    out += fmt::format("  <style>\n{}  </style>\n", options.css);
  svg_visitor v{out};
  for (const auto& item : c.items())
    std::visit(v, item);
  out += "</svg>\n";
  return out;
}

} // namespace roofkit

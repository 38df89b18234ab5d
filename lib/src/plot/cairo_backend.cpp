// PNG and PDF through cairo, when the build found it (ROOFKIT_HAVE_CAIRO).
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "roofkit/core.hpp"
#include "roofkit/plot.hpp"

#if defined(ROOFKIT_HAVE_CAIRO)
#include <cairo-pdf.h>
#include <cairo.h>
#endif

namespace roofkit {

#if defined(ROOFKIT_HAVE_CAIRO)

bool cairo_available() { return true; }

namespace {

struct rgb {
  double r = 0, g = 0, b = 0;
};

bool parse_color(const std::string& s, rgb& out) {
  if (s.size() != 7 || s[0] != '#')
    return false;
  const auto hex = [&](std::size_t i) {
    return static_cast<double>(std::strtol(s.substr(i, 2).c_str(), nullptr, 16)) / 255.0;
  };
  out = {hex(1), hex(3), hex(5)};
  return true;
}

void set_dash(cairo_t* cr, const std::string& dash) {
  std::vector<double> pattern;
  std::istringstream in(dash);
  double v;
  while (in >> v)
    pattern.push_back(v);
  cairo_set_dash(cr, pattern.empty() ? nullptr : pattern.data(), static_cast<int>(pattern.size()),
                 0);
}

// Fills, then strokes, the current path with the paint.
void finish_path(cairo_t* cr, const paint& p) {
  rgb c;
  if (parse_color(p.fill, c)) {
    cairo_set_source_rgba(cr, c.r, c.g, c.b, p.opacity);
    if (parse_color(p.stroke, c))
      cairo_fill_preserve(cr);
    else
      cairo_fill(cr);
  }
  if (parse_color(p.stroke, c)) {
    cairo_set_source_rgba(cr, c.r, c.g, c.b, p.opacity);
    cairo_set_line_width(cr, p.stroke_width);
    set_dash(cr, p.dash);
    cairo_stroke(cr);
  }
  cairo_new_path(cr);
}

void marker_path(cairo_t* cr, marker_shape shape, point2 at, double size) {
  const double r = size / 2;
  switch (shape) {
  case marker_shape::circle:
    cairo_arc(cr, at.x, at.y, r, 0, 2 * M_PI);
    break;
  case marker_shape::square:
    cairo_rectangle(cr, at.x - r * 0.9, at.y - r * 0.9, r * 1.8, r * 1.8);
    break;
  case marker_shape::triangle: {
    const double s = r * 1.25;
    cairo_move_to(cr, at.x, at.y - s);
    cairo_line_to(cr, at.x + s * 0.866, at.y + s * 0.5);
    cairo_line_to(cr, at.x - s * 0.866, at.y + s * 0.5);
    cairo_close_path(cr);
    break;
  }
  case marker_shape::diamond:
    cairo_move_to(cr, at.x, at.y - r);
    cairo_line_to(cr, at.x + r, at.y);
    cairo_line_to(cr, at.x, at.y + r);
    cairo_line_to(cr, at.x - r, at.y);
    cairo_close_path(cr);
    break;
  }
}

void draw_text_item(cairo_t* cr, const draw_text& t) {
  cairo_save(cr);
  cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
                         t.style.bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, t.style.size);
  cairo_translate(cr, t.at.x, t.at.y);
  if (t.style.rotate_deg != 0)
    cairo_rotate(cr, t.style.rotate_deg * M_PI / 180);
  cairo_text_extents_t ext;
  cairo_text_extents(cr, t.text.c_str(), &ext);
  double x = 0;
  if (t.style.anchor == text_anchor::middle)
    x = -ext.x_advance / 2;
  else if (t.style.anchor == text_anchor::end)
    x = -ext.x_advance;
  cairo_move_to(cr, x, 0);
  cairo_text_path(cr, t.text.c_str());
  if (t.style.halo) {
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_set_line_width(cr, 3);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_stroke_preserve(cr);
  }
  rgb c;
  parse_color(t.style.color, c);
  cairo_set_source_rgb(cr, c.r, c.g, c.b);
  cairo_fill(cr);
  cairo_restore(cr);
}

void draw_all(cairo_t* cr, const canvas& cv) {
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER);
  for (const auto& item : cv.items()) {
    if (const auto* l = std::get_if<draw_line>(&item)) {
      cairo_move_to(cr, l->a.x, l->a.y);
      cairo_line_to(cr, l->b.x, l->b.y);
      finish_path(cr, l->p);
    } else if (const auto* pl = std::get_if<draw_polyline>(&item)) {
      for (std::size_t i = 0; i < pl->points.size(); ++i)
        (i == 0 ? cairo_move_to : cairo_line_to)(cr, pl->points[i].x, pl->points[i].y);
      if (pl->closed)
        cairo_close_path(cr);
      finish_path(cr, pl->p);
    } else if (const auto* r = std::get_if<draw_rect>(&item)) {
      if (r->corner_radius > 0) {
        const double k = r->corner_radius;
        cairo_new_sub_path(cr);
        cairo_arc(cr, r->x + r->w - k, r->y + k, k, -M_PI / 2, 0);
        cairo_arc(cr, r->x + r->w - k, r->y + r->h - k, k, 0, M_PI / 2);
        cairo_arc(cr, r->x + k, r->y + r->h - k, k, M_PI / 2, M_PI);
        cairo_arc(cr, r->x + k, r->y + k, k, M_PI, 3 * M_PI / 2);
        cairo_close_path(cr);
      } else {
        cairo_rectangle(cr, r->x, r->y, r->w, r->h);
      }
      finish_path(cr, r->p);
    } else if (const auto* m = std::get_if<draw_marker>(&item)) {
      marker_path(cr, m->shape, m->at, m->size);
      finish_path(cr, m->p);
    } else if (const auto* t = std::get_if<draw_text>(&item)) {
      draw_text_item(cr, *t);
    }
  }
}

void check(cairo_status_t status, const std::filesystem::path& path) {
  if (status != CAIRO_STATUS_SUCCESS)
    throw runtime_error(
        fmt::format("cannot write '{}': {}", path.string(), cairo_status_to_string(status)));
}

} // namespace

void write_png(const canvas& c, const std::filesystem::path& path, double scale) {
  const int w = static_cast<int>(std::ceil(c.width() * scale));
  const int h = static_cast<int>(std::ceil(c.height() * scale));
  cairo_surface_t* surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
  cairo_t* cr = cairo_create(surface);
  cairo_scale(cr, scale, scale);
  draw_all(cr, c);
  cairo_destroy(cr);
  const auto status = cairo_surface_write_to_png(surface, path.string().c_str());
  cairo_surface_destroy(surface);
  check(status, path);
}

void write_pdf(const canvas& c, const std::filesystem::path& path) {
  // Canvas pixels are CSS px: 96 per inch, PDF points are 72 per inch.
  const double pt = 0.75;
  cairo_surface_t* surface =
      cairo_pdf_surface_create(path.string().c_str(), c.width() * pt, c.height() * pt);
  cairo_t* cr = cairo_create(surface);
  cairo_scale(cr, pt, pt);
  draw_all(cr, c);
  cairo_show_page(cr);
  const auto status = cairo_status(cr);
  cairo_destroy(cr);
  cairo_surface_finish(surface);
  const auto surface_status = cairo_surface_status(surface);
  cairo_surface_destroy(surface);
  check(status, path);
  check(surface_status, path);
}

#else

bool cairo_available() { return false; }

namespace {
[[noreturn]] void no_cairo(const std::filesystem::path& path, const char* format) {
  std::filesystem::path svg = path;
  svg.replace_extension(".svg");
  throw error(exit_code::usage,
              fmt::format("cannot write '{}': this roofkit was built without cairo, so it "
                          "cannot write {}",
                          path.string(), format),
              fmt::format("write an SVG ({}) and convert it: rsvg-convert -f {} -o {} {} (or "
                          "rebuild with libcairo2-dev installed)",
                          svg.string(), format[0] == 'P' && format[1] == 'N' ? "png" : "pdf",
                          path.string(), svg.string()));
}
} // namespace

void write_png(const canvas&, const std::filesystem::path& path, double) { no_cairo(path, "PNG"); }

void write_pdf(const canvas&, const std::filesystem::path& path) { no_cairo(path, "PDF"); }

#endif

} // namespace roofkit

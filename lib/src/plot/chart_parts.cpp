// Axes, roofs, title and footer: the parts the roofline and compare charts share.
#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

#include "internal/chart_parts.hpp"
#include "plot_util.hpp"

namespace roofkit::chart_detail {

namespace {

constexpr const char* axis_color = "#555555";
constexpr const char* grid_major = "#dcdcdc";
constexpr const char* grid_minor = "#f0f0f0";
constexpr const char* roof_color = "#303030";
constexpr const char* reference_color = "#8c8c8c";
constexpr double tick_size = 11;

// Powers of ten inside [lo, hi].
std::vector<double> decades(double lo, double hi) {
  std::vector<double> out;
  for (int e = static_cast<int>(std::ceil(std::log10(lo) - 1e-9));
       e <= static_cast<int>(std::floor(std::log10(hi) + 1e-9)); ++e)
    out.push_back(std::pow(10.0, e));
  return out;
}

// 2..9 times every power of ten, inside [lo, hi].
std::vector<double> minors(double lo, double hi) {
  std::vector<double> out;
  for (int e = static_cast<int>(std::floor(std::log10(lo))) - 1;
       e <= static_cast<int>(std::floor(std::log10(hi))); ++e)
    for (int m = 2; m <= 9; ++m) {
      const double v = m * std::pow(10.0, e);
      if (v > lo * (1 + 1e-9) && v < hi * (1 - 1e-9))
        out.push_back(v);
    }
  return out;
}

} // namespace

paint roof_paint(const chart_roof& r) {
  if (r.reference)
    return paint{reference_color, "none", 1.1, "2 3"};
  if (r.source == ceiling_source::theoretical)
    return paint{roof_color, "none", 1.7, "7 4"};
  return paint{roof_color, "none", 1.8};
}

void draw_axes(canvas& c, const chart_frame& f) {
  const double right = f.left + f.width, bottom = f.top + f.height;
  c.rect(f.left, f.top, f.width, f.height, paint{"none", "#ffffff"}, {{"class", "plot-bg"}});
  c.begin({{"class", "grid"}});
  const auto xs = decades(f.x.lo, f.x.hi);
  const auto ys = decades(f.y.lo, f.y.hi);
  const auto xm = minors(f.x.lo, f.x.hi);
  const auto ym = minors(f.y.lo, f.y.hi);
  // Minor grid lines at 2..9 of every decade, then the decades.
  for (double v : xm) {
    const double px = f.x.to_px(v);
    c.line({px, f.top}, {px, bottom}, paint{grid_minor, "none", 1});
  }
  for (double v : ym) {
    const double py = f.y.to_px(v);
    c.line({f.left, py}, {right, py}, paint{grid_minor, "none", 1});
  }
  for (double v : xs) {
    const double px = f.x.to_px(v);
    c.line({px, f.top}, {px, bottom}, paint{grid_major, "none", 1});
  }
  for (double v : ys) {
    const double py = f.y.to_px(v);
    c.line({f.left, py}, {right, py}, paint{grid_major, "none", 1});
  }
  c.end();

  c.begin({{"class", "axes"}});
  c.rect(f.left, f.top, f.width, f.height, paint{axis_color, "none", 1});
  for (double v : xs) {
    const double px = f.x.to_px(v);
    c.line({px, bottom}, {px, bottom + 6}, paint{axis_color, "none", 1});
    c.text({px, bottom + 19}, x_tick_label(v),
           text_style{tick_size, false, text_anchor::middle, "#333333"}, {{"class", "tick"}});
  }
  for (double v : xm) {
    const double px = f.x.to_px(v);
    c.line({px, bottom}, {px, bottom + 3}, paint{axis_color, "none", 1});
  }
  for (double v : ys) {
    const double py = f.y.to_px(v);
    c.line({f.left - 6, py}, {f.left, py}, paint{axis_color, "none", 1});
    c.text({f.left - 9, py + 4}, y_tick_label(v),
           text_style{tick_size, false, text_anchor::end, "#333333"}, {{"class", "tick"}});
  }
  for (double v : ym) {
    const double py = f.y.to_px(v);
    c.line({f.left - 3, py}, {f.left, py}, paint{axis_color, "none", 1});
  }
  c.text({f.left + f.width / 2, bottom + 40}, "Arithmetic intensity (FLOP/byte)",
         text_style{13, false, text_anchor::middle, "#222222"}, {{"class", "axis-title"}});
  c.text({f.left - 56, f.top + f.height / 2}, "Performance (FLOP/s)",
         text_style{13, false, text_anchor::middle, "#222222", -90}, {{"class", "axis-title"}});
  c.end();
}

namespace {

struct roof_line {
  const chart_roof* roof = nullptr;
  point2 a, b; ///< a is the left end
};

std::vector<roof_line> roof_lines(const roofline_chart_data& d, const chart_frame& f) {
  double top_compute = 0, fastest_memory = 0;
  for (const auto& r : d.roofs) {
    if (r.reference)
      continue;
    if (r.is_memory)
      fastest_memory = std::max(fastest_memory, r.value);
    else
      top_compute = std::max(top_compute, r.value);
  }
  if (top_compute <= 0)
    top_compute = d.y_max;
  std::vector<roof_line> out;
  for (const auto& r : d.roofs) {
    double x0, x1, y0, y1;
    if (r.is_memory) {
      x0 = std::max(d.x_min, d.y_min / r.value);
      x1 = std::min(d.x_max, top_compute / r.value);
      y0 = r.value * x0;
      y1 = r.value * x1;
    } else {
      x0 = fastest_memory > 0 ? std::max(d.x_min, r.value / fastest_memory) : d.x_min;
      x1 = d.x_max;
      y0 = y1 = r.value;
    }
    if (x1 <= x0 || y1 > d.y_max * 1.0001)
      continue;
    out.push_back({&r, {f.x.to_px(x0), f.y.to_px(y0)}, {f.x.to_px(x1), f.y.to_px(y1)}});
  }
  return out;
}

} // namespace

void draw_roofs(canvas& c, const roofline_chart_data& d, const chart_frame& f,
                label_placer& placer) {
  const auto lines = roof_lines(d, f);
  c.begin({{"class", "roofs"}});
  for (const auto& l : lines) {
    const chart_roof& r = *l.roof;
    attributes attrs{{"class", std::string("roof ") + (r.is_memory ? "memory" : "compute") +
                                   (r.reference ? " reference" : "")},
                     {"data-value", fmt::format("{:.6g}", r.value)},
                     {"data-source", to_string(r.source)}};
    if (r.is_memory)
      attrs.emplace_back("data-level", to_string(r.level));
    else
      attrs.emplace_back("data-precision", to_string(r.precisions.front()));
    c.begin({}, r.detail);
    c.line(l.a, l.b, roof_paint(r), attrs);
    c.end();
    placer.add_obstacle(l.a, l.b);
  }
  // Ridge points.
  for (const auto& rd : d.ridges) {
    if (rd.intensity < d.x_min || rd.intensity > d.x_max)
      continue;
    const point2 p{f.x.to_px(rd.intensity), f.y.to_px(rd.flops)};
    c.begin({{"class", "ridge"}},
            fmt::format("Ridge point {} \u00d7 {}: {} FLOP/byte at {}", label(rd.level),
                        label(rd.prec), format_number(rd.intensity),
                        format_si(rd.flops, "FLOP/s")));
    c.marker(marker_shape::diamond, p, 8, paint{roof_color, "#ffffff", 1.2},
             {{"class", "ridge-point"},
              {"data-level", to_string(rd.level)},
              {"data-precision", to_string(rd.prec)},
              {"data-intensity", fmt::format("{:.6g}", rd.intensity)}});
    c.end();
    placer.add_obstacle(box_quad(p.x - 3.5, p.y - 3.5, p.x + 3.5, p.y + 3.5));
  }
  c.end();
}

namespace {

// Places one roof label along its line (the short form when the long one does not fit);
// returns false when neither fits.
bool place_roof_label(canvas& c, const roof_line& l, label_placer& placer, const std::string& text,
                      double size) {
  const chart_roof& r = *l.roof;
  const double w = text_width(text, size);
  const double dx = l.b.x - l.a.x, dy = l.b.y - l.a.y;
  const double len = std::hypot(dx, dy);
  if (len <= 0)
    return false;
  const point2 u{dx / len, dy / len};
  const point2 n{u.y, -u.x}; // left of the direction of travel: above the line
  const double angle = r.is_memory ? std::atan2(dy, dx) * 180 / 3.14159265358979323846 : 0;
  // Offsets of the baseline from the line: just above it, a little higher (clear of ridge
  // markers), then below it.
  const std::array<double, 4> offsets{4, 7.5, -(4 + font_ascent * size),
                                      -(7.5 + font_ascent * size)};
  std::vector<double> starts; // distance along the line of the text's start
  if (r.is_memory) {
    for (double s = 0.04 * len; s + w <= len - 4; s += 6)
      starts.push_back(s);
  } else {
    for (double s = len - w - 6; s >= 2; s -= 8)
      starts.push_back(s);
  }
  for (double off : offsets)
    for (double s : starts) {
      const point2 origin{l.a.x + u.x * s + n.x * off, l.a.y + u.y * s + n.y * off};
      const quad q = text_quad(origin, w, size, angle);
      if (!placer.is_free(inflate(q, 1)))
        continue;
      placer.occupy(q);
      text_style st{size,  false, text_anchor::start, r.reference ? "#777777" : "#222222",
                    angle, true};
      c.text(origin, text, st, quad_attrs(q, "label roof-label"));
      return true;
    }
  return false;
}

} // namespace

std::vector<const chart_roof*> place_roof_labels(canvas& c, const roofline_chart_data& d,
                                                 const chart_frame& f, label_placer& placer) {
  std::vector<const chart_roof*> unplaced;
  c.begin({{"class", "roof-labels"}});
  for (const auto& l : roof_lines(d, f)) {
    if (l.roof->label.empty())
      continue;
    // The full label, then without the reference value, then abbreviated and smaller (TF32,
    // FP8 and INT8 exist only on tensor cores; "TC" marks the others).
    std::string tiny = l.roof->short_label;
    for (const auto& [from, to] :
         std::array<std::pair<const char*, const char*>, 5>{{{"Tensor TF32", "TF32"},
                                                             {"Tensor FP8", "FP8"},
                                                             {"Tensor INT8", "INT8"},
                                                             {"Tensor FP16/BF16", "FP16/BF16 TC"},
                                                             {"Tensor FP64", "FP64 TC"}}})
      if (tiny.rfind(from, 0) == 0)
        tiny = to + tiny.substr(std::string_view(from).size());
    const bool placed = place_roof_label(c, l, placer, l.roof->label, 11) ||
                        (l.roof->short_label != l.roof->label &&
                         place_roof_label(c, l, placer, l.roof->short_label, 11)) ||
                        place_roof_label(c, l, placer, tiny, 9.5);
    if (!placed)
      unplaced.push_back(l.roof);
  }
  c.end();
  return unplaced;
}

void draw_title(canvas& c, const roofline_chart_data& d, double left, double right) {
  double badge_w = 0;
  if (!d.origin_badge.empty()) {
    badge_w = text_width(d.origin_badge, 12, true) + 16;
    c.begin({{"class", "origin-badge"}}, d.origin_text);
    c.rect(right - badge_w, 12, badge_w, 22, paint{"none", "#b54708"}, {}, 4);
    c.text({right - badge_w / 2, 27.5}, d.origin_badge,
           text_style{12, true, text_anchor::middle, "#ffffff"});
    c.end();
  }
  c.text({left, 30}, fit_text(d.title, 17, right - left - badge_w - 16, true),
         text_style{17, true, text_anchor::start, "#111111"}, {{"class", "title"}});
}

namespace {

std::vector<std::pair<std::string, std::string>> footer_lines(const roofline_chart_data& d,
                                                              double width) {
  std::vector<std::pair<std::string, std::string>> out; // text, colour
  const double size = 10.5;
  std::vector<std::pair<std::string, std::string>> blocks;
  if (!d.footer.empty())
    blocks.push_back({d.footer.front(), "#444444"});
  blocks.push_back({d.origin_text, d.origin_badge.empty() ? "#444444" : "#b54708"});
  for (std::size_t i = 1; i < d.footer.size(); ++i)
    blocks.push_back({d.footer[i], "#666666"});
  for (const auto& [text, colour] : blocks)
    for (const auto& line : wrap_text(text, size, width))
      out.push_back({line, colour});
  return out;
}

} // namespace

chart_frame plot_frame(const roofline_chart_data& d, double legend_x, double top, double height,
                       double footer_h) {
  chart_frame f;
  f.left = 84;
  f.top = top;
  f.width = legend_x - 24 - f.left;
  f.height = height - footer_h - 56 - f.top;
  f.x = log_axis{d.x_min, d.x_max, f.left, f.left + f.width};
  f.y = log_axis{d.y_min, d.y_max, f.top + f.height, f.top};
  return f;
}

canvas open_plot(const roofline_chart_data& d, const chart_frame& f, double width, double height,
                 label_placer& placer) {
  canvas c(width, height);
  // The background reaches past the bottom, which may move down if the legend grows.
  c.rect(0, 0, width, 2 * height, paint{"none", "#ffffff"}, {{"class", "background"}});
  draw_title(c, d, f.left, width - 16);
  draw_axes(c, f);
  c.begin({{"id", "plot-area"},
           {"data-left", num(f.left)},
           {"data-top", num(f.top)},
           {"data-width", num(f.width)},
           {"data-height", num(f.height)},
           {"data-x-min", fmt::format("{:g}", d.x_min)},
           {"data-x-max", fmt::format("{:g}", d.x_max)},
           {"data-y-min", fmt::format("{:g}", d.y_min)},
           {"data-y-max", fmt::format("{:g}", d.y_max)}});
  draw_roofs(c, d, f, placer);
  return c;
}

double footer_height(const roofline_chart_data& d, double width) {
  return static_cast<double>(footer_lines(d, width).size()) * 14 + 6;
}

double draw_footer(canvas& c, const roofline_chart_data& d, double left, double top, double width) {
  c.begin({{"class", "footer"}});
  double y = top + 11;
  for (const auto& [line, colour] : footer_lines(d, width)) {
    c.text({left, y}, line, text_style{10.5, false, text_anchor::start, colour});
    y += 14;
  }
  c.end();
  return y;
}

} // namespace roofkit::chart_detail

namespace roofkit::chart_detail {

void legend_writer::header(const std::string& text, const std::string& color) {
  if (c_)
    c_->text({x_, y_ + 12}, fit_text(text, 12, w_, true),
             text_style{12, true, text_anchor::start, color});
  y_ += 18;
}

void legend_writer::kernel(const std::string& color, const std::string& text,
                           const std::string& kernel_id, const std::string& title, bool hollow) {
  if (c_) {
    c_->begin({{"class", "legend-kernel"}, {"data-kernel", kernel_id}}, title);
    c_->line({x_, y_ + 7}, {x_ + 22, y_ + 7}, paint{color, "none", 1.6});
    c_->marker(marker_shape::circle, {x_ + 11, y_ + 7}, 8,
               paint{color, hollow ? "#ffffff" : color, 1.4});
    c_->text({x_ + 30, y_ + 11}, fit_text(text, 11, w_ - 30),
             text_style{11, false, text_anchor::start, "#222222"});
    c_->end();
  }
  y_ += 16;
}

void legend_writer::marker(marker_shape shape, const std::string& text, const attributes& group) {
  if (c_) {
    if (!group.empty())
      c_->begin(group);
    c_->marker(shape, {x_ + 11, y_ + 7}, 9, paint{"#444444", "#444444", 1});
    c_->text({x_ + 30, y_ + 11}, fit_text(text, 11, w_ - 30),
             text_style{11, false, text_anchor::start, "#222222"});
    if (!group.empty())
      c_->end();
  }
  y_ += 16;
}

void legend_writer::topic(const std::string& color, const std::string& text,
                          const std::string& topic) {
  if (c_) {
    c_->begin({{"class", "legend-topic toggle"}, {"data-topic", topic}});
    c_->rect(x_ + 4, y_ + 2, 14, 10, paint{"none", color}, {}, 2);
    c_->text({x_ + 30, y_ + 11}, fit_text(text, 11, w_ - 30),
             text_style{11, false, text_anchor::start, "#222222"});
    c_->end();
  }
  y_ += 16;
}

void legend_writer::stroke(const paint& p, const std::string& text) {
  if (c_) {
    c_->line({x_, y_ + 7}, {x_ + 22, y_ + 7}, p);
    c_->text({x_ + 30, y_ + 11}, fit_text(text, 11, w_ - 30),
             text_style{11, false, text_anchor::start, "#222222"});
  }
  y_ += 16;
}

void legend_writer::note(const std::string& text, const std::string& color, double size) {
  for (const auto& line : wrap_text(text, size, w_)) {
    if (c_)
      c_->text({x_, y_ + size}, fit_text(line, size, w_),
               text_style{size, false, text_anchor::start, color});
    y_ += size + 3.5;
  }
  y_ += 2;
}

void legend_roofs(legend_writer& lg, const std::vector<chart_roof>& roofs,
                  const std::string& suffix, const std::vector<const chart_roof*>& unlabelled) {
  lg.header("Roofs");
  bool reference = false, measured = false, theoretical = false;
  for (const auto& r : roofs) {
    reference |= r.reference;
    if (!r.reference)
      (r.source == ceiling_source::measured ? measured : theoretical) = true;
  }
  chart_roof sample;
  if (measured) {
    sample.source = ceiling_source::measured;
    lg.stroke(roof_paint(sample), "measured" + suffix);
  }
  if (theoretical) {
    sample.source = ceiling_source::theoretical;
    lg.stroke(roof_paint(sample), "theoretical" + suffix);
  }
  if (reference) {
    sample.reference = true;
    lg.stroke(roof_paint(sample), "theoretical (reference)");
  }
  lg.marker(marker_shape::diamond, "ridge point");
  if (!unlabelled.empty()) {
    lg.note("No room on the chart for:", "#444444", 10);
    for (const chart_roof* r : unlabelled)
      lg.note(r->key, "#222222", 10);
  }
}

} // namespace roofkit::chart_detail

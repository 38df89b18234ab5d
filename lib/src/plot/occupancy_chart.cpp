// Charts of occupancy sweeps: in the terminal, and the three sweeps on the canvas (SVG, HTML,
// PNG, PDF).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "internal/chart_parts.hpp"
#include "roofkit/core.hpp"
#include "roofkit/plot.hpp"

namespace roofkit {

namespace {

std::string x_text(occupancy_variable v, std::int64_t x) {
  if (v == occupancy_variable::shared_memory)
    return x % 1024 == 0 ? fmt::format("{}K", x / 1024)
                         : fmt::format("{:.1f}K", static_cast<double>(x) / 1024);
  return fmt::format("{}", x);
}

std::string point_text(occupancy_variable v, const occupancy_point& p) {
  return fmt::format("{} {}: {} blocks, {} warps, {:.1f}% ({})", p.value,
                     v == occupancy_variable::block_size  ? "threads"
                     : v == occupancy_variable::registers ? "registers"
                                                          : "B shared memory",
                     p.active_blocks, p.active_warps, p.occupancy * 100, limiter_names(p.limiters));
}

/// Tick step giving about `target` ticks over `span`, from 1/2/5 x 10^k (multiples of 1024
/// for shared memory).
double nice_step(double span, int target, bool bytes) {
  if (bytes) {
    double step = 1024;
    for (double m : {2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0})
      if (span / step > target)
        step = 1024 * m;
    return step;
  }
  return chart_detail::nice_step(span, target);
}

} // namespace

std::string sweep_title(occupancy_variable v) {
  switch (v) {
  case occupancy_variable::block_size:
    return "Active warps per SM vs block size";
  case occupancy_variable::registers:
    return "Active warps per SM vs registers per thread";
  case occupancy_variable::shared_memory:
    return "Active warps per SM vs shared memory per block";
  }
  return {};
}

std::string sweep_axis_label(occupancy_variable v) {
  switch (v) {
  case occupancy_variable::block_size:
    return "threads per block";
  case occupancy_variable::registers:
    return "registers per thread";
  case occupancy_variable::shared_memory:
    return "shared memory per block (static + dynamic)";
  }
  return {};
}

std::string sweep_terminal_chart(const occupancy_sweep& s, int width, int height) {
  std::string out = sweep_title(s.variable) + "\n";
  if (s.points.empty() || width < 8 || height < 2)
    return out;
  const double x0 = static_cast<double>(s.points.front().value);
  const double x1 = static_cast<double>(s.points.back().value);
  const double span = std::max(x1 - x0, 1.0);
  // Each column shows the point nearest to its centre.
  std::vector<int> warps(width);
  std::size_t next = 0;
  for (int c = 0; c < width; ++c) {
    const double centre = x0 + (c + 0.5) * span / width;
    while (next + 1 < s.points.size() &&
           std::abs(static_cast<double>(s.points[next + 1].value) - centre) <=
               std::abs(static_cast<double>(s.points[next].value) - centre))
      ++next;
    warps[c] = s.points[next].active_warps;
  }
  int marked = static_cast<int>((static_cast<double>(s.current.value) - x0) / span * width);
  marked = std::clamp(marked, 0, width - 1);
  warps[marked] = s.current.active_warps;
  const int max_warps = std::max(s.max_warps_per_sm, 1);
  const int label_width = static_cast<int>(fmt::format("{}", max_warps).size());
  for (int row = 0; row < height; ++row) {
    const double level = static_cast<double>(height - row) - 0.5; // cell centre, in rows
    std::string label;
    if (row == 0)
      label = fmt::format("{}", max_warps);
    else if (row == height / 2)
      label = fmt::format("{}", max_warps / 2);
    out += fmt::format("{:>{}} |", label, label_width);
    for (int c = 0; c < width; ++c) {
      const bool filled = static_cast<double>(warps[c]) * height / max_warps >= level;
      out += filled ? (c == marked ? '@' : '#') : (c == marked ? ':' : ' ');
    }
    out += '\n';
  }
  out += fmt::format("{:>{}} +{}\n", 0, label_width, std::string(width, '-'));
  const std::string lo = x_text(s.variable, s.points.front().value);
  const std::string hi = x_text(s.variable, s.points.back().value);
  std::string axis(width + 2, ' ');
  axis.replace(0, lo.size(), lo);
  if (hi.size() < axis.size())
    axis.replace(axis.size() - hi.size(), hi.size(), hi);
  out += fmt::format("{:>{}}{}\n", "", label_width, axis);
  out += fmt::format("{:>{}}  {}^ current: {}\n", "", label_width, std::string(marked, ' '),
                     point_text(s.variable, s.current));
  out += fmt::format("{:>{}}  x: {}, y: active warps per SM (max {})\n", "", label_width,
                     sweep_axis_label(s.variable), max_warps);
  return out;
}

namespace {

constexpr double sweeps_width = 760;
constexpr double panel_h = 250;
constexpr double panel_left = 70;
constexpr double panel_right = 70;
constexpr double panels_top = 50;

void put_text(canvas& c, double x, double y, std::string s, double size, text_anchor anchor,
              std::string color = "#222222", bool bold = false, double rotate = 0) {
  text_style t;
  t.size = size;
  t.anchor = anchor;
  t.color = std::move(color);
  t.bold = bold;
  t.rotate_deg = rotate;
  c.text({x, y}, std::move(s), t);
}

paint stroke(std::string colour, double w = 1, std::string dash = {}) {
  paint p;
  p.stroke = std::move(colour);
  p.stroke_width = w;
  p.dash = std::move(dash);
  return p;
}

void dot(canvas& c, double x, double y, double r, const std::string& fill, std::string hover) {
  paint p;
  p.fill = fill;
  c.begin({}, std::move(hover));
  c.marker(marker_shape::circle, {x, y}, 2 * r, p);
  c.end();
}

// One sweep's panel, its top at `py`: frame, grid, ticks, the step line of active warps, the
// points, and the current launch marked and labelled.
void draw_sweep_panel(canvas& c, const occupancy_sweep& s, double py) {
  const double left = panel_left;
  const double plot_top = py + 30;
  const double plot_h = panel_h - 80;
  const double plot_w = sweeps_width - panel_left - panel_right;
  put_text(c, left, py + 18, sweep_title(s.variable), 13, text_anchor::start, "#111111", true);
  if (s.points.empty())
    return;
  const bool bytes = s.variable == occupancy_variable::shared_memory;
  const double x0 = bytes || s.variable == occupancy_variable::block_size
                        ? 0
                        : static_cast<double>(s.points.front().value - 1);
  const double x1 = static_cast<double>(s.points.back().value);
  const double span = std::max(x1 - x0, 1.0);
  const double max_warps = std::max(s.max_warps_per_sm, 1);
  auto sx = [&](double x) { return left + (x - x0) / span * plot_w; };
  auto sy = [&](double warps) { return plot_top + plot_h - warps / max_warps * plot_h; };
  paint frame = stroke("#999999");
  frame.fill = "#fafafa";
  c.rect(left, plot_top, plot_w, plot_h, frame);
  for (int q = 0; q <= 4; ++q) {
    const double warps = max_warps * q / 4;
    c.line({left, sy(warps)}, {left + plot_w, sy(warps)}, stroke("#dddddd", 1, "3 3"));
    put_text(c, left - 6, sy(warps) + 4, fmt::format("{:g}", warps), 11, text_anchor::end);
    put_text(c, left + plot_w + 6, sy(warps) + 4, fmt::format("{}%", q * 25), 11,
             text_anchor::start, "#666666");
  }
  const double step = nice_step(span, 8, bytes);
  for (double x = std::ceil(x0 / step) * step; x <= x1 + 1e-9; x += step) {
    c.line({sx(x), plot_top + plot_h}, {sx(x), plot_top + plot_h + 4}, stroke("#666666"));
    put_text(c, sx(x), plot_top + plot_h + 16, x_text(s.variable, static_cast<std::int64_t>(x)), 11,
             text_anchor::middle);
  }
  put_text(c, left + plot_w / 2, plot_top + plot_h + 34, sweep_axis_label(s.variable), 12,
           text_anchor::middle);
  put_text(c, left - 40, plot_top + plot_h / 2, "active warps / SM", 11, text_anchor::middle,
           "#222222", false, -90);
  // Step line: each value holds until the next point.
  std::vector<point2> xy;
  for (const auto& p : s.points) {
    const double x = sx(static_cast<double>(p.value));
    if (!xy.empty())
      xy.push_back({x, xy.back().y});
    xy.push_back({x, sy(p.active_warps)});
  }
  c.polyline(std::move(xy), stroke("#1f77b4", 2));
  if (s.points.size() <= 64)
    for (const auto& p : s.points)
      dot(c, sx(static_cast<double>(p.value)), sy(p.active_warps), 2.5, "#1f77b4",
          point_text(s.variable, p));
  const double cx = sx(static_cast<double>(s.current.value));
  const double cy = sy(s.current.active_warps);
  c.line({cx, plot_top}, {cx, plot_top + plot_h}, stroke("#d62728", 1, "4 3"));
  dot(c, cx, cy, 5, "#d62728", "current launch: " + point_text(s.variable, s.current));
  const bool right_half = cx > left + plot_w * 0.6;
  put_text(c, cx + (right_half ? -8 : 8), std::max(cy - 8, plot_top + 12),
           fmt::format("current: {} ({} warps, {:.1f}%)", x_text(s.variable, s.current.value),
                       s.current.active_warps, s.current.occupancy * 100),
           11, right_half ? text_anchor::end : text_anchor::start, "#d62728", true);
}

} // namespace

canvas draw_occupancy_sweeps(const std::vector<occupancy_sweep>& sweeps, const std::string& title,
                             const std::string& caption) {
  std::vector<std::string> caption_lines;
  for (std::size_t from = 0; from <= caption.size();) {
    const auto nl = caption.find('\n', from);
    caption_lines.push_back(caption.substr(from, nl == std::string::npos ? nl : nl - from));
    if (nl == std::string::npos)
      break;
    from = nl + 1;
  }
  const double height = panels_top + panel_h * static_cast<double>(sweeps.size()) + 16 +
                        16 * static_cast<double>(caption_lines.size());
  canvas c(sweeps_width, height);
  put_text(c, sweeps_width / 2, 28, title, 16, text_anchor::middle, "#111111", true);
  for (std::size_t i = 0; i < sweeps.size(); ++i)
    draw_sweep_panel(c, sweeps[i], panels_top + panel_h * static_cast<double>(i));
  for (std::size_t i = 0; i < caption_lines.size(); ++i)
    put_text(c, sweeps_width / 2,
             panels_top + panel_h * static_cast<double>(sweeps.size()) + 12 + 16 * i,
             caption_lines[i], 11, text_anchor::middle, "#555555");
  return c;
}

std::string sweeps_svg(const std::vector<occupancy_sweep>& sweeps, const std::string& title,
                       const std::string& caption) {
  return to_svg(draw_occupancy_sweeps(sweeps, title, caption));
}

void write_occupancy_sweeps(const std::vector<occupancy_sweep>& sweeps, const std::string& title,
                            const std::string& caption, const std::filesystem::path& path) {
  const canvas c = draw_occupancy_sweeps(sweeps, title, caption);
  const chart_format format = chart_format_for_path(path);
  if (format != chart_format::html) {
    write_canvas(c, path, format);
    return;
  }
  svg_options inline_svg;
  inline_svg.standalone = false;
  write_text_file(path, fmt::format("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
                                    "charset=\"utf-8\">\n<title>{}</title>\n</head>\n<body>\n{}"
                                    "</body>\n</html>\n",
                                    xml_escape(title), to_svg(c, inline_svg)));
}

} // namespace roofkit

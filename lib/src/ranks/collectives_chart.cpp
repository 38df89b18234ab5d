// The collectives of a job against the interconnect: nccl-tests' view (bus bandwidth over
// message size), every rank's collectives as markers, the measured all-reduce roof and NVLink.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "internal/chart_parts.hpp"
#include "roofkit/core.hpp"
#include "roofkit/ranks.hpp"

namespace roofkit {

namespace {

using chart_detail::nice_log_range;
using chart_detail::y_tick_label;

constexpr const char* palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                   "#ff7f0e", "#17becf", "#8c564b", "#e377c2"};

std::string bytes_label(double v) {
  constexpr const char* units[] = {"B", "kB", "MB", "GB", "TB"};
  int u = 0;
  while (v >= 1000 && u < 4) {
    v /= 1000;
    ++u;
  }
  return fmt::format("{:g} {}", v, units[u]);
}

void axes(canvas& c, const chart_frame& f) {
  const paint grid{"#e6e6e6", "none", 1};
  const paint axis{"#444444", "none", 1};
  const text_style tick{11, false, text_anchor::middle, "#333333"};
  c.rect(f.left, f.top, f.width, f.height, paint{"none", "#ffffff"});
  for (double v = f.x.lo; v <= f.x.hi * 1.0001; v *= 10) {
    const double px = f.x.to_px(v);
    c.line({px, f.top}, {px, f.top + f.height}, grid);
    c.text({px, f.top + f.height + 18}, bytes_label(v), tick, {{"class", "tick"}});
  }
  text_style ytick = tick;
  ytick.anchor = text_anchor::end;
  for (double v = f.y.lo; v <= f.y.hi * 1.0001; v *= 10) {
    const double py = f.y.to_px(v);
    c.line({f.left, py}, {f.left + f.width, py}, grid);
    c.text({f.left - 8, py + 4}, y_tick_label(v) + "B/s", ytick, {{"class", "tick"}});
  }
  c.rect(f.left, f.top, f.width, f.height, axis);
  c.text({f.left + f.width / 2, f.top + f.height + 40}, "Message size (nccl-tests' bytes)",
         text_style{13, false, text_anchor::middle, "#222222"}, {{"class", "axis-title"}});
  c.text({f.left - 70, f.top + f.height / 2}, "Bus bandwidth",
         text_style{13, false, text_anchor::middle, "#222222", -90}, {{"class", "axis-title"}});
}

void roof_line(canvas& c, const chart_frame& f, double value, const std::string& label,
               const std::string& dash, bool below) {
  if (value <= 0)
    return;
  const double py = f.y.to_px(value);
  c.line({f.left, py}, {f.left + f.width, py}, paint{"#222222", "none", 2, dash},
         {{"class", "roof"}, {"data-value", fmt::format("{:g}", value)}});
  text_style t{11, false, text_anchor::end, "#222222"};
  t.halo = true;
  c.text({f.left + f.width - 6, below ? py + 14 : py - 5}, label, t, {{"class", "roof-label"}});
}

} // namespace

interconnect_roof load_interconnect_roof(const std::filesystem::path& path) {
  const auto j = nlohmann::json::parse(read_text_file(path), nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("all_reduce"))
    throw usage_error(fmt::format("'{}' is not an interconnect measurement (expected the JSON of "
                                  "the interconnect ceilings, with an \"all_reduce\" array)",
                                  path.string()));
  interconnect_roof r;
  for (const auto& p : j["all_reduce"])
    r.all_reduce_busbw = std::max(r.all_reduce_busbw, p.value("busbw_bytes_per_s", 0.0));
  if (j.contains("theoretical_nvlink"))
    r.nvlink_per_direction = j["theoretical_nvlink"].value("per_direction_bytes_per_s", 0.0);
  return r;
}

canvas draw_collectives_chart(const merge_summary& s, const interconnect_roof& roof,
                              const std::string& title) {
  canvas c(900, 560);
  chart_frame f;
  f.left = 100;
  f.top = 50;
  f.width = 600;
  f.height = 420;
  // The points and roofs, or nccl-tests' usual span when there are none.
  double xmin = 1e300, xmax = 0, ymin = 1e300, ymax = 0;
  for (double r : {roof.all_reduce_busbw, roof.nvlink_per_direction})
    if (r > 0) {
      ymin = std::min(ymin, r);
      ymax = std::max(ymax, r);
    }
  for (const auto& p : s.collective_points) {
    xmin = std::min(xmin, p.bytes);
    xmax = std::max(xmax, p.bytes);
    ymin = std::min(ymin, p.busbw);
    ymax = std::max(ymax, p.busbw);
  }
  if (xmax <= 0) {
    xmin = 1e3;
    xmax = 1e9;
  }
  if (ymax <= 0) {
    ymin = 1e9;
    ymax = 1e12;
  }
  nice_log_range(xmin, xmax, 0.1, 2, f.x.lo, f.x.hi);
  nice_log_range(ymin, ymax, 0.1, 2, f.y.lo, f.y.hi);
  f.x.lo = std::pow(10, std::floor(std::log10(f.x.lo)));
  f.y.lo = std::pow(10, std::floor(std::log10(f.y.lo)));
  f.x.hi = std::pow(10, std::ceil(std::log10(f.x.hi)));
  f.y.hi = std::pow(10, std::ceil(std::log10(f.y.hi)));
  f.x.px_lo = f.left;
  f.x.px_hi = f.left + f.width;
  f.y.px_lo = f.top + f.height;
  f.y.px_hi = f.top;
  c.text({f.left, 30}, title, text_style{15, true}, {{"class", "title"}});
  axes(c, f);
  roof_line(c, f, roof.all_reduce_busbw,
            fmt::format("measured all-reduce busbw {:.0f} GB/s", roof.all_reduce_busbw / 1e9), "",
            true);
  roof_line(
      c, f, roof.nvlink_per_direction,
      fmt::format("NVLink {:.0f} GB/s per direction (datasheet)", roof.nvlink_per_direction / 1e9),
      "6 4", false);
  const marker_shape shapes[] = {marker_shape::circle, marker_shape::square, marker_shape::triangle,
                                 marker_shape::diamond};
  std::vector<std::pair<int, collective_op>> legend;
  for (const auto& p : s.collective_points) {
    const auto colour = palette[static_cast<std::size_t>(std::max(0, p.rank)) % 8];
    const auto shape = shapes[static_cast<std::size_t>(p.op) % 4];
    c.marker(shape, {f.x.to_px(p.bytes), f.y.to_px(p.busbw)}, 9, paint{"#ffffff", colour, 1},
             {{"class", "collective"},
              {"data-rank", std::to_string(p.rank)},
              {"data-op", to_string(p.op)},
              {"data-bytes", fmt::format("{:g}", p.bytes)},
              {"data-busbw", fmt::format("{:g}", p.busbw)}});
    if (std::find(legend.begin(), legend.end(), std::pair{p.rank, p.op}) == legend.end())
      legend.emplace_back(p.rank, p.op);
  }
  double y = f.top + 10;
  for (const auto& [rank, op] : legend) {
    if (y > f.top + f.height)
      break;
    c.marker(shapes[static_cast<std::size_t>(op) % 4], {f.left + f.width + 24, y - 4}, 9,
             paint{"#ffffff", palette[static_cast<std::size_t>(std::max(0, rank)) % 8], 1});
    c.text({f.left + f.width + 36, y}, fmt::format("rank {} {}", rank, to_string(op)),
           text_style{11});
    y += 18;
  }
  return c;
}

} // namespace roofkit

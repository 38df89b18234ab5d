// The cliff chart: predicted occupancy staircase (right axis) and measured rate (left axis) over
// the swept value, predicted steps and measured changes marked, the events listed underneath.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "internal/chart_parts.hpp"
#include "internal/text_util.hpp"
#include "roofkit/cliff.hpp"
#include "roofkit/core.hpp"
#include "roofkit/plot.hpp"

namespace roofkit {

using detail::percent_rounded;

namespace {

using chart_detail::fit_text;
using chart_detail::format_time;
using chart_detail::nice_step;
using chart_detail::wrap_text;

constexpr const char* rate_color = "#d95f02";
constexpr const char* occupancy_color = "#1b62a5";
constexpr const char* achieved_color = "#5fa2dd";
constexpr const char* step_color = "#6b6b6b";
constexpr const char* drop_color = "#c4001a";
constexpr const char* rise_color = "#1a7f37";

std::string value_label(const cliff_result& r, double v) {
  if (r.axis == sweep_axis::smem || r.axis == sweep_axis::size) {
    const auto i = static_cast<std::int64_t>(v);
    if (i >= (1 << 30) && i % (1 << 30) == 0)
      return fmt::format("{}G", i >> 30);
    if (i >= (1 << 20) && i % (1 << 20) == 0)
      return fmt::format("{}M", i >> 20);
    if (i >= 1024 && i % 1024 == 0)
      return fmt::format("{}K", i >> 10);
  }
  return fmt::format("{}", static_cast<std::int64_t>(v));
}

std::string rate_text(const cliff_result& r, double v) {
  if (r.rate_unit == "B/s" || r.rate_unit == "FLOP/s")
    return format_si(v, r.rate_unit);
  return fmt::format("{:.4g} {}", v, r.rate_unit);
}

// The x mapping: linear, or log2 for geometric sweeps.
struct x_axis {
  double lo = 0, hi = 1, px_lo = 0, px_hi = 1;
  bool log = false;
  double t(double v) const { return log ? std::log2(std::max(v, 1e-300)) : v; }
  double to_px(double v) const {
    const double a = t(lo), b = t(hi);
    return b > a ? px_lo + (t(v) - a) / (b - a) * (px_hi - px_lo) : 0.5 * (px_lo + px_hi);
  }
};

struct y_axis {
  double lo = 0, hi = 1, px_lo = 0, px_hi = 1; // px_lo: bottom
  double to_px(double v) const { return px_lo + (v - lo) / (hi - lo) * (px_hi - px_lo); }
};

std::string event_text(const cliff_result& r, const cliff_event& e) {
  std::string where = value_label(r, double(r.points.at(e.at).value));
  if (e.change && !e.step && e.change->from + 1 != e.change->at)
    where = value_label(r, double(r.points.at(e.change->from).value)) + "\u2192" + where;
  std::string s = fmt::format("{} {}: ", to_string(r.axis), where);
  if (e.step)
    s += fmt::format("occupancy {} \u2192 {} ({} \u2192 {} blocks/SM)",
                     percent_rounded(e.step->before), percent_rounded(e.step->after),
                     e.step->blocks_before, e.step->blocks_after);
  if (e.step && e.change)
    s += "; ";
  if (e.change)
    s += fmt::format("{} {:+.1f}%", r.rate_name, 100 * e.change->relative);
  s += fmt::format(" \u2014 {}", to_string(e.verdict));
  if (!e.cause.empty())
    s += " (" + e.cause + ")";
  return s;
}

std::string verdict_color(cliff_verdict v) {
  switch (v) {
  case cliff_verdict::agree:
    return "#1a7f37";
  case cliff_verdict::opposite:
    return "#8250df";
  case cliff_verdict::predicted_only:
    return step_color;
  case cliff_verdict::measured_only:
    return drop_color;
  }
  return "#222222";
}

std::string point_title(const cliff_result& r, const cliff_point& p) {
  std::string s = fmt::format("{} = {}\n", to_string(r.axis), value_label(r, double(p.value)));
  s += fmt::format("grid {} x block {}, dyn smem {} B, {} registers, local {} B", p.grid, p.block,
                   p.dynamic_smem, p.registers, p.local_bytes);
  if (p.spill_stores)
    s += fmt::format(", spill stores {} B", *p.spill_stores);
  s += fmt::format("\npredicted occupancy {} ({} blocks/SM, limiter {})",
                   percent_rounded(p.occupancy_theoretical), p.active_blocks,
                   p.limiter.empty() ? "none" : p.limiter);
  if (p.occupancy_achieved)
    s += fmt::format("\nachieved occupancy {}", percent_rounded(*p.occupancy_achieved));
  if (p.status != "ok")
    return s + fmt::format("\n{}: {}", p.status, p.message);
  if (p.time_median_s > 0)
    s += fmt::format("\ntime {} (min {}, max {}, n {}), spread {:.1f}%",
                     format_time(p.time_median_s), format_time(p.time_min_s),
                     format_time(p.time_max_s), p.repetitions, 100 * p.spread);
  s += fmt::format("\n{} {}", r.rate_name, rate_text(r, p.rate));
  if (p.pct_of_roof > 0)
    s += fmt::format("\n{:.0f}% of the roof ({})", p.pct_of_roof, p.bound);
  return s;
}

// The chart's geometry, decided before anything is drawn: the text under the plot decides the
// height, the points decide the axes.
struct cliff_layout {
  double width = 0, left = 84, right = 0, top = 98, bottom = 0, events_top = 0, height = 0;
  std::vector<std::pair<std::string, const cliff_event*>> event_lines;
  std::vector<std::string> footer_lines;
  std::vector<const cliff_point*> pts;
  x_axis xa;
  y_axis ya, yo;
  double ystep = 1;
};

std::vector<std::string> footer_lines(const cliff_result& r, double text_w) {
  std::vector<std::string> footer;
  auto mhz = [](double v) { return v > 0 ? fmt::format("{:.0f} MHz", v) : "not recorded"; };
  footer.push_back(fmt::format("{} (CC {}.{}, {} SMs); SM clock {} after the sweep, memory clock "
                               "{}; {}",
                               r.device.empty() ? "device not recorded" : r.device, r.cc_major,
                               r.cc_minor, r.sm_count, mhz(r.sm_clock_mhz), mhz(r.mem_clock_mhz),
                               r.date.empty() ? "date not recorded" : r.date));
  footer.push_back(fmt::format("measured change: {} moves > {:.0f}% and > {:g}x the run-to-run "
                               "spread; roofkit {}",
                               r.rate_name, 100 * r.options.threshold, r.options.spread_factor,
                               tool_version()));
  if (!r.command.empty())
    footer.push_back("command: " + r.command);
  std::vector<std::string> lines;
  for (const auto& f : footer)
    for (const auto& l : wrap_text(f, 10, text_w))
      lines.push_back(l);
  return lines;
}

// The x axis over the swept values; the rate axis up to the fastest repetition, in nice steps.
void set_axes(const cliff_result& r, cliff_layout& L) {
  for (const auto& p : r.points)
    L.pts.push_back(&p);
  L.xa.log = r.range.geometric;
  L.xa.px_lo = L.left;
  L.xa.px_hi = L.right;
  if (!L.pts.empty()) {
    L.xa.lo = double(L.pts.front()->value);
    L.xa.hi = double(L.pts.back()->value);
    if (L.xa.log && L.xa.lo < 1)
      L.xa.lo = 1;
    if (L.xa.hi <= L.xa.lo)
      L.xa.hi = L.xa.lo + 1;
  }
  double rate_max = 0;
  for (const auto* p : L.pts)
    if (p->status == "ok" && std::isfinite(p->rate)) {
      rate_max = std::max(rate_max, p->rate);
      if (p->time_min_s > 0 && p->time_median_s > 0)
        rate_max = std::max(rate_max, p->rate * p->time_median_s / p->time_min_s);
    }
  L.ya = y_axis{0, rate_max > 0 ? rate_max * 1.1 : 1, L.bottom, L.top};
  L.ystep = nice_step(L.ya.hi, 5);
  L.ya.hi = std::ceil(L.ya.hi / L.ystep) * L.ystep;
  L.yo = y_axis{0, 1.05, L.bottom, L.top};
}

cliff_layout make_layout(const cliff_result& r, const cliff_chart_options& o) {
  cliff_layout L;
  L.width = o.width;
  L.right = o.width - 84;
  const double text_w = o.width - 48;
  for (const auto& e : r.events)
    for (const auto& line : wrap_text(event_text(r, e), 11, text_w - 20))
      L.event_lines.emplace_back(line, &e);
  L.footer_lines = footer_lines(r, text_w);
  const double plot_h = std::max(260.0, o.height - 240);
  L.bottom = L.top + plot_h;
  L.events_top = L.bottom + 58;
  L.height = L.events_top + 18 + 16 * double(L.event_lines.size()) +
             14 * double(L.footer_lines.size()) + 16;
  set_axes(r, L);
  return L;
}

std::string chart_title(const cliff_result& r, const cliff_chart_options& o) {
  return !o.title.empty() ? o.title
                          : fmt::format("{}: {} sweep{}", r.kernel, to_string(r.axis),
                                        r.device.empty() ? "" : " on " + r.device);
}

void draw_heading(canvas& c, const cliff_result& r, const cliff_chart_options& o) {
  c.text({24, 30}, fit_text(chart_title(r, o), 17, o.width - 48, true), {17, true});
  c.text({24, 50},
         fit_text(fmt::format("predicted occupancy (our engine) and measured {} against {}",
                              r.rate_name, sweep_axis_label(r.axis)),
                  12, o.width - 48),
         {12, false, text_anchor::start, "#444444"});
}

// X ticks: every point when they fit, else a thinned set.
void draw_x_ticks(canvas& c, const cliff_result& r, const cliff_layout& L) {
  const double min_gap = 44;
  double last_px = -1e9;
  for (const auto* p : L.pts) {
    const double x = L.xa.to_px(double(p->value));
    const bool last = p == L.pts.back();
    if (x - last_px < min_gap && !last)
      continue;
    if (last && x - last_px < min_gap && last_px > -1e9)
      continue;
    c.line({x, L.bottom}, {x, L.bottom + 4}, {"#444444", "none", 1});
    c.text({x, L.bottom + 17}, value_label(r, double(p->value)), {10, false, text_anchor::middle});
    last_px = x;
  }
}

void draw_axes(canvas& c, const cliff_result& r, const cliff_layout& L) {
  const double left = L.left, right = L.right, top = L.top, bottom = L.bottom;
  // Grid and left ticks (rate).
  for (double v = 0; v <= L.ya.hi + L.ystep * 1e-6; v += L.ystep) {
    const double y = L.ya.to_px(v);
    c.line({left, y}, {right, y}, {"#e6e6e6", "none", 1});
    c.text({left - 6, y + 4}, rate_text(r, v), {10, false, text_anchor::end, rate_color});
  }
  // Right ticks (occupancy).
  for (int k = 0; k <= 4; ++k) {
    const double y = L.yo.to_px(0.25 * k);
    c.line({right, y}, {right + 4, y}, {occupancy_color, "none", 1});
    c.text({right + 7, y + 4}, fmt::format("{}%", 25 * k),
           {10, false, text_anchor::start, occupancy_color});
  }
  draw_x_ticks(c, r, L);
  c.line({left, bottom}, {right, bottom}, {"#444444", "none", 1});
  c.line({left, top}, {left, bottom}, {rate_color, "none", 1});
  c.line({right, top}, {right, bottom}, {occupancy_color, "none", 1});
  c.text({(left + right) / 2, bottom + 36},
         sweep_axis_label(r.axis) + (L.xa.log ? " (log scale)" : ""),
         {12, false, text_anchor::middle});
  c.text({22, (top + bottom) / 2}, fmt::format("measured {} ({})", r.rate_name, r.rate_unit),
         {12, false, text_anchor::middle, rate_color, -90});
  c.text({L.width - 18, (top + bottom) / 2}, "occupancy per SM (%)",
         {12, false, text_anchor::middle, occupancy_color, 90});
}

// Size sweeps: where the working set passes the L1 (per SM) and the L2.
void draw_cache_levels(canvas& c, const cliff_result& r, const cliff_layout& L) {
  if (r.axis != sweep_axis::size)
    return;
  const auto& pts = L.pts;
  const std::pair<double, const char*> levels[] = {{r.l1_bytes, "L1"}, {r.l2_bytes, "L2"}};
  for (const auto& [cap, name] : levels) {
    if (!(cap > 0))
      continue;
    for (std::size_t i = 1; i < pts.size(); ++i) {
      const double a = pts[i - 1]->working_set_bytes, b = pts[i]->working_set_bytes;
      if (!(a > 0 && b > a && a <= cap && cap < b))
        continue;
      const double f = std::log(cap / a) / std::log(b / a);
      const double xa0 = L.xa.to_px(double(pts[i - 1]->value));
      const double x = xa0 + f * (L.xa.to_px(double(pts[i]->value)) - xa0);
      const std::string label = fmt::format("{} {}", name, value_label(r, cap));
      c.begin({{"class", "cache-level"}, {"data-level", name}},
              fmt::format("the working set passes the {} ({} bytes) here", name, cap));
      c.line({x, L.top}, {x, L.bottom}, {"#9a6700", "none", 1, "2 3"});
      c.text({x - 4, L.bottom - 8}, label, {10, false, text_anchor::end, "#9a6700", 0, true});
      c.end();
      break;
    }
  }
}

// Predicted steps: vertical dashed lines between the two points.
void draw_predicted_steps(canvas& c, const cliff_result& r, const cliff_layout& L) {
  for (const auto& e : r.events) {
    if (!e.step)
      continue;
    const double xa0 = L.xa.to_px(double(r.points.at(e.step->from).value));
    const double xb = L.xa.to_px(double(r.points.at(e.step->at).value));
    const double x = 0.5 * (xa0 + xb);
    c.begin({{"class", "predicted-step"},
             {"data-at", std::to_string(e.at)},
             {"data-verdict", to_string(e.verdict)}},
            event_text(r, e));
    c.line({x, L.top}, {x, L.bottom}, {verdict_color(e.verdict), "none", 1.2, "5 4"});
    c.text({x, L.top - 6}, percent_rounded(e.step->after),
           {9, false, text_anchor::middle, verdict_color(e.verdict)});
    c.end();
  }
}

// The predicted staircase, then the achieved occupancy.
void draw_occupancy(canvas& c, const cliff_layout& L) {
  std::vector<point2> stairs;
  for (const auto* p : L.pts) {
    if (p->status == "error" && p->active_blocks == 0 && p->block == 0)
      continue;
    const double x = L.xa.to_px(double(p->value));
    const double y = L.yo.to_px(p->occupancy_theoretical);
    if (!stairs.empty()) {
      const double xm = 0.5 * (stairs.back().x + x);
      stairs.push_back({xm, stairs.back().y});
      stairs.push_back({xm, y});
    }
    stairs.push_back({x, y});
  }
  c.begin({{"class", "predicted"}}, "predicted (theoretical) occupancy, our engine");
  if (stairs.size() > 1)
    c.polyline(stairs, {occupancy_color, "none", 2});
  else if (stairs.size() == 1)
    c.marker(marker_shape::square, stairs[0], 6, {occupancy_color, occupancy_color});
  c.end();
  c.begin({{"class", "achieved"}}, "achieved occupancy (counters)");
  for (const auto* p : L.pts)
    if (p->occupancy_achieved)
      c.marker(marker_shape::diamond,
               {L.xa.to_px(double(p->value)), L.yo.to_px(*p->occupancy_achieved)}, 7,
               {achieved_color, "#ffffff", 1.4},
               {{"class", "achieved-point"},
                {"data-value", std::to_string(p->value)},
                {"data-occupancy", fmt::format("{:.4f}", *p->occupancy_achieved)}});
  c.end();
}

// The measured rate: a line through the points, min..max bars, one group per point.
void draw_measured(canvas& c, const cliff_result& r, const cliff_layout& L) {
  c.begin({{"class", "measured"}}, "measured " + r.rate_name);
  std::vector<point2> line;
  for (const auto* p : L.pts)
    if (p->status == "ok" && p->rate > 0)
      line.push_back({L.xa.to_px(double(p->value)), L.ya.to_px(p->rate)});
  if (line.size() > 1)
    c.polyline(line, {rate_color, "none", 1.8});
  for (const auto* p : L.pts) {
    const double x = L.xa.to_px(double(p->value));
    attributes a{{"class", "point"},
                 {"data-value", std::to_string(p->value)},
                 {"data-status", p->status},
                 {"data-rate", fmt::format("{:.6g}", p->rate)},
                 {"data-occupancy", fmt::format("{:.4f}", p->occupancy_theoretical)}};
    c.begin(a, point_title(r, *p));
    if (p->status == "ok" && p->rate > 0) {
      if (p->time_min_s > 0 && p->time_max_s > 0 && p->time_median_s > 0) {
        const double hi = p->rate * p->time_median_s / p->time_min_s;
        const double lo = p->rate * p->time_median_s / p->time_max_s;
        c.line({x, L.ya.to_px(lo)}, {x, L.ya.to_px(hi)}, {rate_color, "none", 1, "", 0.6});
      }
      c.marker(marker_shape::circle, {x, L.ya.to_px(p->rate)}, 7, {rate_color, rate_color});
    } else {
      // Not measured: a cross on the axis.
      c.line({x - 4, L.bottom - 4}, {x + 4, L.bottom + 4}, {drop_color, "none", 1.5});
      c.line({x - 4, L.bottom + 4}, {x + 4, L.bottom - 4}, {drop_color, "none", 1.5});
    }
    c.end();
  }
  c.end();
}

// Measured changes: a triangle at the point after the change.
void draw_measured_changes(canvas& c, const cliff_result& r, const cliff_layout& L) {
  for (const auto& e : r.events) {
    if (!e.change)
      continue;
    const auto& p = r.points.at(e.change->at);
    const double x = L.xa.to_px(double(p.value));
    const double y = L.ya.to_px(p.rate);
    const bool drop = e.change->drop();
    c.begin({{"class", "measured-change"},
             {"data-at", std::to_string(e.change->at)},
             {"data-relative", fmt::format("{:.4f}", e.change->relative)},
             {"data-verdict", to_string(e.verdict)}},
            event_text(r, e));
    const double dy = drop ? 14 : -14;
    c.polygon({{x - 6, y + dy - (drop ? 5 : -5)},
               {x + 6, y + dy - (drop ? 5 : -5)},
               {x, y + dy + (drop ? 5 : -5)}},
              {"#ffffff", drop ? drop_color : rise_color, 1});
    c.text({x + 9, y + dy + 4}, fmt::format("{:+.0f}%", 100 * e.change->relative),
           {10, true, text_anchor::start, drop ? drop_color : rise_color, 0, true});
    c.end();
  }
}

void draw_legend(canvas& c, const cliff_result& r, const cliff_layout& L) {
  double x = L.left;
  const double y = 70;
  auto key = [&](const std::string& label, auto draw) {
    draw(x);
    c.text({x + 26, y + 4}, label, {11});
    x += 36 + text_width(label, 11);
  };
  c.begin({{"class", "legend"}});
  key("predicted occupancy", [&](double x0) {
    c.line({x0, y}, {x0 + 20, y}, {occupancy_color, "none", 2});
  });
  key("achieved occupancy", [&](double x0) {
    c.marker(marker_shape::diamond, {x0 + 10, y}, 7, {achieved_color, "#ffffff", 1.4});
  });
  key("measured " + r.rate_name, [&](double x0) {
    c.line({x0, y}, {x0 + 20, y}, {rate_color, "none", 1.8});
    c.marker(marker_shape::circle, {x0 + 10, y}, 7, {rate_color, rate_color});
  });
  key("predicted step", [&](double x0) {
    c.line({x0 + 10, y - 7}, {x0 + 10, y + 7}, {step_color, "none", 1.2, "5 4"});
  });
  key("measured drop / rise", [&](double x0) {
    c.polygon({{x0 + 2, y - 4}, {x0 + 10, y - 4}, {x0 + 6, y + 4}}, {"#ffffff", drop_color, 1});
    c.polygon({{x0 + 12, y + 4}, {x0 + 20, y + 4}, {x0 + 16, y - 4}}, {"#ffffff", rise_color, 1});
  });
  c.end();
}

// The events in words, then the footer.
void draw_events(canvas& c, const cliff_layout& L) {
  double y = L.events_top;
  c.begin({{"class", "events"}});
  c.text({24, y},
         L.event_lines.empty() ? "No predicted step and no measured change in this sweep."
                               : "Predicted steps and measured changes:",
         {12, true});
  y += 18;
  const cliff_event* prev = nullptr;
  for (const auto& [line, e] : L.event_lines) {
    if (e != prev)
      c.marker(marker_shape::circle, {30, y - 4}, 7,
               {verdict_color(e->verdict), verdict_color(e->verdict)});
    c.text({40, y}, line, {11, false, text_anchor::start, "#222222"},
           {{"class", "event"}, {"data-verdict", to_string(e->verdict)}});
    prev = e;
    y += 16;
  }
  c.end();
  for (const auto& l : L.footer_lines) {
    c.text({24, y + 8}, l, {10, false, text_anchor::start, "#666666"});
    y += 14;
  }
}

} // namespace

canvas draw_cliff_chart(const cliff_result& r, const cliff_chart_options& o) {
  const cliff_layout L = make_layout(r, o);
  canvas c(L.width, std::max(o.height, L.height));
  c.rect(0, 0, L.width, c.height(), {"none", "#ffffff"});
  draw_heading(c, r, o);
  c.begin({{"id", "plot-area"},
           {"data-left", fmt::format("{}", L.left)},
           {"data-top", fmt::format("{}", L.top)},
           {"data-width", fmt::format("{}", L.right - L.left)},
           {"data-height", fmt::format("{}", L.bottom - L.top)}});
  draw_axes(c, r, L);
  draw_cache_levels(c, r, L);
  draw_predicted_steps(c, r, L);
  draw_occupancy(c, L);
  draw_measured(c, r, L);
  draw_measured_changes(c, r, L);
  c.end(); // plot-area
  draw_legend(c, r, L);
  draw_events(c, L);
  return c;
}

std::string render_cliff_svg(const cliff_result& r, const cliff_chart_options& o) {
  return to_svg(draw_cliff_chart(r, o));
}

std::string render_cliff_html(const cliff_result& r, const cliff_chart_options& o) {
  svg_options so;
  so.standalone = false;
  const std::string svg = to_svg(draw_cliff_chart(r, o), so);
  auto html_table = [](const table& t) {
    std::string s = "<h2>" + xml_escape(t.title) + "</h2>\n<table id=\"" + xml_escape(t.id) +
                    "\">\n<thead><tr>";
    for (const auto& col : t.columns)
      s += "<th>" + xml_escape(col.unit.empty() ? col.header : col.header + " (" + col.unit + ")") +
           "</th>";
    s += "</tr></thead>\n<tbody>\n";
    for (std::size_t i = 0; i < t.rows.size(); ++i) {
      const bool hl = i < t.highlight.size() && t.highlight[i];
      s += hl ? "<tr class=\"hl\">" : "<tr>";
      for (std::size_t k = 0; k < t.rows[i].size(); ++k) {
        const auto& cellv = t.rows[i][k];
        std::string text;
        if (const auto* d = std::get_if<double>(&cellv))
          text = fmt::format("{:.{}f}", *d, std::max(0, t.columns[k].decimals));
        else
          text = to_text(cellv);
        s += "<td>" + xml_escape(text) + "</td>";
      }
      s += "</tr>\n";
    }
    s += "</tbody></table>\n";
    for (const auto& n : t.notes)
      s += "<p class=\"note\">" + xml_escape(n) + "</p>\n";
    return s;
  };
  const std::string title = chart_title(r, o);
  std::string page = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>" +
                     xml_escape(title) + "</title>\n<style>\n" +
                     "body{font-family:\"DejaVu Sans\",Verdana,Arial,sans-serif;margin:16px "
                     "24px;color:#222;background:#fff}\n"
                     "h1{font-size:18px}h2{font-size:15px;margin-top:20px}\n"
                     ".chart svg{max-width:100%;height:auto}\n"
                     "table{border-collapse:collapse;font-size:12px}\n"
                     "th,td{border-bottom:1px solid #ddd;padding:3px 8px;text-align:right;"
                     "white-space:nowrap}\nth{background:#f4f4f4}\ntr.hl td{background:#e6f4ea}\n"
                     "p.note{color:#666;font-size:12px}\n</style></head>\n<body>\n<h1>" +
                     xml_escape(title) + "</h1>\n<div class=\"chart\">\n" + svg + "</div>\n";
  page += html_table(cliff_events_table(r));
  page += html_table(cliff_points_table(r));
  page += "<p class=\"note\">" + xml_escape(r.kernel_description) + "</p>\n</body></html>\n";
  return page;
}

void write_cliff_chart(const cliff_result& r, const std::filesystem::path& path,
                       const cliff_chart_options& o) {
  const chart_format f = chart_format_for_path(path);
  switch (f) {
  case chart_format::svg:
    write_text_file(path, render_cliff_svg(r, o));
    return;
  case chart_format::html:
    write_text_file(path, render_cliff_html(r, o));
    return;
  case chart_format::png:
    write_png(draw_cliff_chart(r, o), path);
    return;
  case chart_format::pdf:
    write_pdf(draw_cliff_chart(r, o), path);
    return;
  case chart_format::terminal:
    break;
  }
  throw usage_error(fmt::format("chart file '{}': a cliff chart is written as .svg, .html, .png "
                                "or .pdf",
                                path.string()));
}

} // namespace roofkit

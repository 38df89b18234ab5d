// The before/after chart: roofs of the "after" run, an arrow per kernel from its before point
// to its after point.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "internal/chart_parts.hpp"
#include "plot_util.hpp"

namespace roofkit {

namespace {

using namespace chart_detail;

struct pair_point {
  const chart_kernel* before = nullptr;
  const chart_kernel* after = nullptr;
  std::string color;
  std::string label;        ///< on the chart
  std::string legend_label; ///< in the legend
  std::string tooltip;
};

const chart_point& point_at(const chart_kernel& k, memory_level level) {
  for (const auto& p : k.points)
    if (p.level == level)
      return p;
  return k.points.back();
}

// The i-th kernel of a name in one run matches the i-th kernel of that name in the other, as in
// compare_runs().
std::string match_key(const run& r, const chart_kernel& k) {
  int occurrence = 0;
  for (std::size_t i = 0; i < k.run_index; ++i)
    occurrence += r.kernels[i].name == k.name ? 1 : 0;
  return fmt::format("{}\x1f{}", k.name, occurrence);
}

std::string change_text(double before_s, double after_s) {
  if (!(before_s > 0) || !(after_s > 0))
    return "";
  const double speedup = before_s / after_s;
  if (std::fabs(speedup - 1) < 0.005)
    return "same time";
  return speedup >= 1 ? fmt::format("{:.2f}\u00d7 faster", speedup)
                      : fmt::format("{:.2f}\u00d7 slower", 1 / speedup);
}

/// The kernels drawn in either run, paired by name and launch (before only and after only ones
/// too), with their colours, labels and tooltips.
std::vector<pair_point> pair_kernels(const run& before, const run& after,
                                     const roofline_chart_data& db, const roofline_chart_data& d,
                                     memory_level level) {
  std::vector<pair_point> pairs;
  std::map<std::string, const chart_kernel*> by_key;
  for (const auto& k : d.kernels)
    by_key[match_key(after, k)] = &k;
  std::vector<bool> after_used(d.kernels.size(), false);
  for (const auto& kb : db.kernels) {
    const chart_kernel* ka = nullptr;
    if (auto it = by_key.find(match_key(before, kb)); it != by_key.end()) {
      ka = it->second;
      after_used[static_cast<std::size_t>(ka - d.kernels.data())] = true;
    }
    pairs.push_back({&kb, ka, {}, {}, {}, {}});
  }
  for (std::size_t i = 0; i < d.kernels.size(); ++i)
    if (!after_used[i])
      pairs.push_back({nullptr, &d.kernels[i], {}, {}, {}, {}});
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    auto& p = pairs[i];
    p.color = kernel_color(i);
    const chart_kernel& any = p.after ? *p.after : *p.before;
    if (p.before && p.after) {
      p.label = any.label + "  " + change_text(p.before->time_s, p.after->time_s);
      p.legend_label = any.label;
      const chart_point& pb = point_at(*p.before, level);
      const chart_point& pa = point_at(*p.after, level);
      p.tooltip = fmt::format(
          "{}\ntime {} \u2192 {} ({})\nachieved {} \u2192 {}\nintensity {} {} \u2192 {} "
          "{} FLOP/B",
          any.name, format_time(p.before->time_s), format_time(p.after->time_s),
          change_text(p.before->time_s, p.after->time_s),
          format_si(p.before->flops_per_s, "FLOP/s"), format_si(p.after->flops_per_s, "FLOP/s"),
          label(pb.level), format_number(pb.intensity), label(pa.level),
          format_number(pa.intensity));
      if (p.before->pct_of_roof > 0 && p.after->pct_of_roof > 0)
        p.tooltip += fmt::format("\n% of roof {:.0f} \u2192 {:.0f}", p.before->pct_of_roof,
                                 p.after->pct_of_roof);
    } else {
      p.label = any.label;
      p.legend_label = any.label + (p.before ? "  (before only)" : "  (after only)");
      p.tooltip = any.tooltip;
    }
  }

  return pairs;
}

/// Widens the after run's axis ranges to the before run's points.
void widen_axes(roofline_chart_data& d, const roofline_chart_data& db) {
  double xmin = d.x_min, xmax = d.x_max, ymin = d.y_min, ymax = d.y_max;
  for (const auto& k : db.kernels)
    for (const auto& p : k.points) {
      xmin = std::min(xmin, p.intensity);
      xmax = std::max(xmax, p.intensity);
      ymin = std::min(ymin, k.flops_per_s);
      ymax = std::max(ymax, k.flops_per_s);
    }
  nice_log_range(xmin, xmax, 0, 0, d.x_min, d.x_max);
  nice_log_range(ymin, ymax, 0, 0, d.y_min, d.y_max);
}

/// The footer, origin and badge of both runs, in the after run's chart data.
void merge_footers(roofline_chart_data& d, const roofline_chart_data& db, const run& before,
                   const run& after) {
  std::vector<std::string> footer;
  if (!db.footer.empty() && !d.footer.empty()) {
    if (db.footer.front() == d.footer.front())
      footer.push_back("Both runs: " + d.footer.front());
    else
      footer.push_back("Before: " + db.footer.front() + ". After: " + d.footer.front() +
                       " (roofs from this run).");
  }
  if (d.footer.size() > 1)
    footer.push_back(d.footer.back());
  if (before.context.origin != after.context.origin)
    d.origin_text += " The before run is " + to_string(before.context.origin) + ".";
  if (d.origin_badge.empty())
    d.origin_badge = db.origin_badge;
  d.footer = footer;
}

/// Draws each pair: its before and after markers and the arrow between them. Returns where each
/// pair's label goes (at the after point, else the before point).
std::vector<std::pair<point2, const pair_point*>> draw_pairs(canvas& c, label_placer& placer,
                                                             const chart_frame& f,
                                                             const std::vector<pair_point>& pairs,
                                                             memory_level level) {
  const double ms = marker_size;
  std::vector<std::pair<point2, const pair_point*>> anchors;
  c.begin({{"class", "kernels"}});
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const auto& p = pairs[i];
    c.begin({{"class", "kernel"}, {"id", fmt::format("c{}", i)}}, p.tooltip);
    std::optional<point2> from, to;
    if (p.before) {
      const chart_point& q = point_at(*p.before, level);
      from = point2{f.x.to_px(q.intensity), f.y.to_px(p.before->flops_per_s)};
      c.marker(level_marker(q.level), *from, ms, paint{p.color, "#ffffff", 1.6},
               {{"class", "point before"},
                {"data-level", to_string(q.level)},
                {"data-intensity", fmt::format("{:.9g}", q.intensity)},
                {"data-flops-per-s", fmt::format("{:.9g}", p.before->flops_per_s)}});
    }
    if (p.after) {
      const chart_point& q = point_at(*p.after, level);
      to = point2{f.x.to_px(q.intensity), f.y.to_px(p.after->flops_per_s)};
      c.marker(level_marker(q.level), *to, ms, paint{"#ffffff", p.color, 0.8},
               {{"class", "point after"},
                {"data-level", to_string(q.level)},
                {"data-intensity", fmt::format("{:.9g}", q.intensity)},
                {"data-flops-per-s", fmt::format("{:.9g}", p.after->flops_per_s)}});
    }
    if (from && to) {
      const double dx = to->x - from->x, dy = to->y - from->y;
      const double len = std::hypot(dx, dy);
      if (len > ms + 6) {
        const point2 u{dx / len, dy / len};
        const point2 a{from->x + u.x * (ms / 2 + 2), from->y + u.y * (ms / 2 + 2)};
        const point2 tip{to->x - u.x * (ms / 2 + 1.5), to->y - u.y * (ms / 2 + 1.5)};
        const point2 base{tip.x - u.x * 9, tip.y - u.y * 9};
        c.line(a, base, paint{p.color, "none", 1.8}, {{"class", "arrow"}});
        c.polygon({tip, {base.x - u.y * 4, base.y + u.x * 4}, {base.x + u.y * 4, base.y - u.x * 4}},
                  paint{"none", p.color}, {{"class", "arrow-head"}});
        placer.add_obstacle(a, tip);
      }
    }
    c.end();
    for (const auto& pt : {from, to})
      if (pt)
        placer.add_obstacle(box_quad(pt->x - ms / 2 - 1, pt->y - ms / 2 - 1, pt->x + ms / 2 + 1,
                                     pt->y + ms / 2 + 1));
    anchors.push_back({to ? *to : *from, &p});
  }
  c.end();
  return anchors;
}

/// The pairs' labels, where the placer finds room.
void draw_pair_labels(canvas& c, label_placer& placer,
                      const std::vector<std::pair<point2, const pair_point*>>& anchors) {
  const double ms = marker_size;
  c.begin({{"class", "kernel-labels"}});
  const double size = 11, h = size * 1.2;
  for (std::size_t i = 0; i < anchors.size(); ++i) {
    const auto& [at, p] = anchors[i];
    const double w = text_width(p->label, size) + 2;
    auto placed = placer.place(at, w, h, 7, ms / 2 + 1, 0);
    if (!placed)
      placed = placer.place(at, w, h, 7, ms / 2 + 1, 250);
    if (!placed)
      continue;
    const auto& q = placed->box;
    c.begin({{"class", "kernel-label"}, {"data-kernel", fmt::format("c{}", i)}}, p->tooltip);
    if (placed->leader)
      c.line(placed->leader_from, placed->leader_to, paint{p->color, "none", 0.9, {}, 0.8},
             {{"class", "leader"}});
    const double baseline =
        q.corners[0].y + (h - (font_ascent + font_descent) * size) / 2 + font_ascent * size;
    c.text({q.corners[0].x + 1, baseline}, p->label,
           text_style{size, false, text_anchor::start, p->color, 0, true},
           quad_attrs(q, "label kernel-label-text"));
    c.end();
  }
  c.end();
}

/// The legend: kernels, point shapes, roofs and what either run does not plot. Returns its
/// bottom.
double draw_compare_legend(canvas& c, double legend_x, double top, double legend_w,
                           const std::vector<pair_point>& pairs, const roofline_chart_data& db,
                           const roofline_chart_data& d, memory_level level,
                           const std::vector<const chart_roof*>& unlabelled) {
  legend_writer lg(&c, legend_x, top, legend_w);
  c.begin({{"class", "legend"}});
  lg.header("Kernels");
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const auto& p = pairs[i];
    lg.kernel(p.color, p.legend_label, fmt::format("c{}", i), p.tooltip, !p.after);
  }
  lg.gap();
  lg.header("Points");
  if (!c.items().empty()) {
    const double y = lg.bottom();
    c.marker(marker_shape::circle, {legend_x + 11, y + 7}, 9, paint{"#444444", "#ffffff", 1.6});
    c.text({legend_x + 30, y + 11}, "before", text_style{11});
    lg.gap(16);
    const double y2 = lg.bottom();
    c.marker(marker_shape::circle, {legend_x + 11, y2 + 7}, 9, paint{"#ffffff", "#444444", 0.8});
    c.text({legend_x + 30, y2 + 11}, "after", text_style{11});
    lg.gap(16);
  }
  lg.note(fmt::format("Arrows join each kernel's {} points (or its highest-intensity point).",
                      label(level)));
  lg.gap(4);
  legend_roofs(lg, d.roofs, " (after run)", unlabelled);
  if (!db.excluded.empty() || !d.excluded.empty()) {
    lg.gap();
    lg.header("Not plotted", "#b00020");
    const auto in_before = [&](const chart_excluded& e) {
      for (const auto& b : db.excluded)
        if (b.name == e.name && b.reason == e.reason)
          return true;
      return false;
    };
    const auto in_after = [&](const chart_excluded& e) {
      for (const auto& a : d.excluded)
        if (a.name == e.name && a.reason == e.reason)
          return true;
      return false;
    };
    for (const auto& e : db.excluded)
      lg.note((in_after(e) ? "" : "before: ") + short_name(e.name, 40) + ": " + e.reason,
              "#7a0016");
    for (const auto& e : d.excluded)
      if (!in_before(e))
        lg.note("after: " + short_name(e.name, 40) + ": " + e.reason, "#7a0016");
  }
  c.end();
  return lg.bottom();
}

} // namespace

canvas draw_compare(const run& before, const run& after, const compare_chart_options& options,
                    chart_frame* frame_out) {
  const chart_options& co = options.chart;
  const memory_level level = options.level.value_or(memory_level::dram);
  const roofline_chart_data db = make_roofline_data(before, co);
  roofline_chart_data d = make_roofline_data(after, co);
  d.title = !co.title.empty() ? co.title
                              : "Before \u2192 after: " + (after.context.device_name.empty()
                                                               ? std::string("unknown device")
                                                               : after.context.device_name);

  const std::vector<pair_point> pairs = pair_kernels(before, after, db, d, level);

  widen_axes(d, db);
  merge_footers(d, db, before, after);

  // Layout as in the roofline chart.
  const double W = co.width;
  double legend_w = 180;
  for (const auto& p : pairs)
    legend_w = std::max(legend_w, text_width(p.legend_label, 11) + 34);
  legend_w = std::min(legend_w, 250.0);
  const double legend_x = W - 16 - legend_w;
  const double top = 52;
  const double fh = footer_height(d, W - 32);
  const double legend_h =
      18 + 16 * static_cast<double>(pairs.size()) + 8 + 18 + 16 * 3 + 8 + 18 + 16 * 3 + 60;
  double H = std::max(co.height, top + legend_h + 60 + fh);
  const chart_frame f = plot_frame(d, legend_x, top, H, fh);
  if (frame_out)
    *frame_out = f;
  label_placer placer(f.left + 2, f.top + 2, f.left + f.width - 2, f.top + f.height - 2);
  canvas c = open_plot(d, f, W, H, placer);

  const auto anchors = draw_pairs(c, placer, f, pairs, level);
  const auto unlabelled = place_roof_labels(c, d, f, placer);

  draw_pair_labels(c, placer, anchors);
  c.end(); // plot-area

  const double legend_bottom =
      draw_compare_legend(c, legend_x, top, legend_w, pairs, db, d, level, unlabelled);
  if (legend_bottom + 20 > H - fh) {
    H = legend_bottom + 20 + fh;
    c.set_height(H);
  }
  draw_footer(c, d, 16, H - fh, W - 32);
  return c;
}

std::string render_compare_svg(const run& before, const run& after,
                               const compare_chart_options& options) {
  return to_svg(draw_compare(before, after, options));
}

} // namespace roofkit

// The roofline chart: data -> canvas -> SVG.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "internal/chart_parts.hpp"
#include "plot_util.hpp"

namespace roofkit {

namespace {

using namespace chart_detail;

constexpr double label_size = 11;

std::string kernel_id(std::size_t run_index) { return fmt::format("k{}", run_index); }

// Draws the legend (or measures it when c is null); returns its bottom.
double draw_legend(canvas* c, const roofline_chart_data& d, double x, double y, double w,
                   const std::vector<const chart_roof*>& unlabelled = {}) {
  legend_writer lg(c, x, y, w);
  if (d.by_topic) {
    lg.header("Topics");
    for (const auto& t : d.topics)
      if (t.plotted > 0)
        lg.topic(t.color, fmt::format("{} ({})", t.name, t.plotted), t.name);
    lg.gap();
  } else if (!d.kernels.empty()) {
    lg.header("Kernels");
    for (const auto& k : d.kernels)
      lg.kernel(k.color, k.label, kernel_id(k.run_index), k.tooltip);
    lg.gap();
  }
  bool level_seen[3] = {false, false, false};
  bool overhead = false;
  for (const auto& k : d.kernels) {
    overhead |= k.overhead_dominated;
    for (const auto& p : k.points)
      level_seen[static_cast<int>(p.level)] = true;
  }
  if (level_seen[0] || level_seen[1] || level_seen[2]) {
    lg.header("Memory level of a point");
    for (memory_level l : {memory_level::dram, memory_level::l2, memory_level::l1})
      if (level_seen[static_cast<int>(l)])
        lg.marker(level_marker(l), label(l),
                  {{"class", "legend-level toggle"}, {"data-level", to_string(l)}});
    if (overhead)
      lg.stroke(paint{"#555555", "none", 1, "2 2"}, "ring: launch overhead");
    lg.gap();
  }
  if (!d.roofs.empty()) {
    legend_roofs(lg, d.roofs, "", unlabelled);
    lg.gap();
  }
  if (d.kernels.empty() && d.excluded.empty())
    lg.note("No kernels in this run.");
  if (d.no_flops > 0)
    lg.note(fmt::format("{} kernel{} move{} data only (no FLOPs): see the bandwidth view.",
                        d.no_flops, d.no_flops == 1 ? "" : "s", d.no_flops == 1 ? "s" : ""),
            "#444444");
  std::vector<const chart_excluded*> others;
  for (const auto& e : d.excluded)
    if (!e.no_flops)
      others.push_back(&e);
  if (!others.empty()) {
    // One line per kernel when few; otherwise one line per reason with a count and an example.
    lg.header("Not plotted", "#b00020");
    if (others.size() <= 4) {
      for (const auto* e : others)
        lg.note(short_name(e->name, 40) + ": " + e->reason, "#7a0016");
    } else {
      std::vector<std::pair<std::string, std::vector<const chart_excluded*>>> by_reason;
      for (const auto* e : others) {
        auto it = std::find_if(by_reason.begin(), by_reason.end(),
                               [&](const auto& g) { return g.first == e->reason; });
        if (it == by_reason.end())
          by_reason.push_back({e->reason, {e}});
        else
          it->second.push_back(e);
      }
      std::size_t shown = 0;
      for (const auto& [reason, list] : by_reason) {
        if (shown == 3) {
          lg.note("and more (see the table)", "#7a0016");
          break;
        }
        lg.note(list.size() == 1 ? short_name(list[0]->name, 40) + ": " + reason
                                 : fmt::format("{} kernels ({}, ...): {}", list.size(),
                                               short_name(list[0]->name, 32), reason),
                "#7a0016");
        ++shown;
      }
    }
  }
  return lg.bottom();
}

} // namespace

namespace {

// A kernel's label anchor: the marker at its last level.
struct anchor {
  point2 at;
  const chart_kernel* k;
};

double legend_width(const roofline_chart_data& d) {
  double legend_w = 180;
  if (d.by_topic)
    for (const auto& t : d.topics)
      legend_w = std::max(legend_w, text_width(t.name + " (000)", 11) + 34);
  else
    for (const auto& k : d.kernels)
      legend_w = std::max(legend_w, text_width(k.label, 11) + 34);
  return std::min(legend_w, 250.0);
}

// One kernel: joining line, then one marker per level.
void draw_kernel_marks(canvas& c, const chart_kernel& k, const chart_frame& f,
                       label_placer& placer) {
  const double y = f.y.to_px(k.flops_per_s);
  c.begin({{"class", k.overhead_dominated ? "kernel overhead" : "kernel"},
           {"id", kernel_id(k.run_index)},
           {"data-name", k.name},
           {"data-topic", k.topic}},
          k.tooltip);
  if (k.points.size() > 1) {
    const point2 a{f.x.to_px(k.points.front().intensity), y};
    const point2 b{f.x.to_px(k.points.back().intensity), y};
    c.line(a, b, paint{k.color, "none", 1.4, {}, 0.85}, {{"class", "join"}});
    placer.add_obstacle(a, b);
  }
  for (const auto& p : k.points) {
    const point2 at{f.x.to_px(p.intensity), y};
    if (k.overhead_dominated)
      c.marker(marker_shape::circle, at, marker_size + 7, paint{"#555555", "none", 1, "2 2"},
               {{"class", "overhead-ring"}, {"data-level", to_string(p.level)}});
    c.marker(level_marker(p.level), at, marker_size, paint{"#ffffff", k.color, 0.8},
             {{"class", "point"},
              {"data-level", to_string(p.level)},
              {"data-intensity", fmt::format("{:.9g}", p.intensity)},
              {"data-flops-per-s", fmt::format("{:.9g}", k.flops_per_s)},
              {"data-pct-of-roof", fmt::format("{:.4g}", p.pct_of_roof)},
              {"data-tip", p.tip}});
    placer.add_obstacle(box_quad(at.x - marker_size / 2 - 1, at.y - marker_size / 2 - 1,
                                 at.x + marker_size / 2 + 1, at.y + marker_size / 2 + 1));
  }
  c.end();
}

std::vector<anchor> draw_kernels(canvas& c, const roofline_chart_data& d, const chart_frame& f,
                                 label_placer& placer) {
  std::vector<anchor> anchors;
  c.begin({{"class", "kernels"}});
  for (const auto& k : d.kernels) {
    draw_kernel_marks(c, k, f, placer);
    if (k.labelled)
      anchors.push_back(
          {point2{f.x.to_px(k.points.back().intensity), f.y.to_px(k.flops_per_s)}, &k});
  }
  c.end();
  return anchors;
}

constexpr double kernel_label_h = label_size * 1.2;

// Kernel labels. A point on its own gets its label right next to it; points in a cluster get a
// column of labels beside the cluster with leader lines; what is left is placed as near as
// possible with a leader line.
std::vector<std::optional<placed_label>> place_kernel_labels(const std::vector<anchor>& anchors,
                                                             label_placer& placer) {
  const double label_h = kernel_label_h;
  std::vector<double> widths;
  std::vector<std::optional<placed_label>> placed(anchors.size());
  std::vector<std::size_t> clustered, pending;
  for (std::size_t i = 0; i < anchors.size(); ++i) {
    widths.push_back(text_width(anchors[i].k->label, label_size) + 2);
    int neighbours = 0;
    for (std::size_t j = 0; j < anchors.size(); ++j)
      neighbours += j != i && distance(anchors[i].at, anchors[j].at) < 24 ? 1 : 0;
    (neighbours >= 3 ? clustered : pending).push_back(i);
  }
  std::vector<std::size_t> leftover;
  for (std::size_t i : pending) {
    placed[i] = placer.place(anchors[i].at, widths[i], label_h, 7, marker_size / 2 + 1, 0);
    if (!placed[i])
      leftover.push_back(i);
  }
  if (!clustered.empty()) {
    std::vector<point2> at;
    std::vector<double> w;
    for (std::size_t i : clustered) {
      at.push_back(anchors[i].at);
      w.push_back(widths[i]);
    }
    const auto column = placer.place_stack(at, w, label_h, marker_size / 2 + 1);
    for (std::size_t k = 0; k < clustered.size(); ++k) {
      placed[clustered[k]] = column[k];
      if (!column[k])
        leftover.push_back(clustered[k]);
    }
  }
  for (std::size_t i : leftover) {
    placed[i] = placer.place(anchors[i].at, widths[i], label_h, 7, marker_size / 2 + 1, 200);
    if (!placed[i])
      placed[i] = placer.place(anchors[i].at, widths[i], label_h, 7, marker_size / 2 + 1, 600);
  }
  return placed;
}

void draw_kernel_labels(canvas& c, const std::vector<anchor>& anchors,
                        const std::vector<std::optional<placed_label>>& placed) {
  const double label_h = kernel_label_h;
  c.begin({{"class", "kernel-labels"}});
  for (std::size_t i = 0; i < anchors.size(); ++i) {
    if (!placed[i])
      continue; // the legend still names it
    const chart_kernel& k = *anchors[i].k;
    const auto& q = placed[i]->box;
    const double x0 = q.corners[0].x, y0 = q.corners[0].y;
    const double baseline =
        y0 + (label_h - (font_ascent + font_descent) * label_size) / 2 + font_ascent * label_size;
    c.begin({{"class", "kernel-label"},
             {"data-kernel", kernel_id(k.run_index)},
             {"data-topic", k.topic}},
            k.tooltip);
    if (placed[i]->leader)
      c.line(placed[i]->leader_from, placed[i]->leader_to, paint{k.color, "none", 0.9, {}, 0.8},
             {{"class", "leader"}});
    c.text({x0 + 1, baseline}, k.label,
           text_style{label_size, false, text_anchor::start, k.color, 0, true},
           quad_attrs(q, "label kernel-label-text"));
    c.end();
  }
  c.end();
}

// Ridge intensities of the slowest memory roof, where there is room right next to them.
void draw_ridge_labels(canvas& c, const roofline_chart_data& d, const chart_frame& f,
                       label_placer& placer) {
  const chart_roof* slowest = nullptr;
  for (const auto& r : d.roofs)
    if (r.is_memory && !r.reference && (!slowest || r.value < slowest->value))
      slowest = &r;
  c.begin({{"class", "ridge-labels"}});
  for (const auto& rd : d.ridges) {
    if (!slowest || rd.level != slowest->level || rd.intensity < d.x_min || rd.intensity > d.x_max)
      continue;
    const std::string text = format_number(rd.intensity) + " FLOP/B";
    const double size = 9.5;
    const point2 at{f.x.to_px(rd.intensity), f.y.to_px(rd.flops)};
    const quad q0 =
        box_quad(at.x + 3, at.y + 5, at.x + 3 + text_width(text, size) + 2, at.y + 5 + size * 1.2);
    if (!placer.is_free(q0))
      continue;
    placer.occupy(q0);
    c.text({at.x + 4, at.y + 5 + font_ascent * size + 0.5}, text,
           text_style{size, false, text_anchor::start, "#555555", 0, true},
           quad_attrs(q0, "label ridge-label"));
  }
  c.end();
}

} // namespace

canvas draw_roofline(const roofline_chart_data& d, const chart_options& options,
                     chart_frame* frame_out) {
  const double W = options.width;
  double H = options.height;
  const double legend_w = legend_width(d);
  const double legend_x = W - 16 - legend_w;
  const double top = 52;
  const double fh = footer_height(d, W - 32);
  const double legend_bottom = draw_legend(nullptr, d, legend_x, top, legend_w);
  // Grow the canvas so that the legend fits above the footer.
  H = std::max(H, legend_bottom + 60 + fh);

  const chart_frame f = plot_frame(d, legend_x, top, H, fh);
  if (frame_out)
    *frame_out = f;
  label_placer placer(f.left + 2, f.top + 2, f.left + f.width - 2, f.top + f.height - 2);
  canvas c = open_plot(d, f, W, H, placer);
  const std::vector<anchor> anchors = draw_kernels(c, d, f, placer);
  const auto unlabelled = place_roof_labels(c, d, f, placer);
  const auto placed = place_kernel_labels(anchors, placer);
  draw_kernel_labels(c, anchors, placed);
  draw_ridge_labels(c, d, f, placer);
  c.end(); // plot-area

  c.begin({{"class", "legend"}});
  const double bottom = draw_legend(&c, d, legend_x, top, legend_w, unlabelled);
  c.end();
  if (bottom + 20 > H - fh) {
    H = bottom + 20 + fh;
    c.set_height(H);
  }
  draw_footer(c, d, 16, H - fh, W - 32);
  return c;
}

std::string render_roofline_svg(const run& r, const chart_options& options) {
  return to_svg(draw_roofline(make_roofline_data(r, options), options));
}

} // namespace roofkit

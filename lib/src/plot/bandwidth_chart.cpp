// The bandwidth view: kernels without FLOPs (copies, transposes) against each level's roof.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "internal/chart_parts.hpp"
#include "plot_util.hpp"

namespace roofkit {

namespace {

using namespace chart_detail;

constexpr double row_h = 18;
constexpr double bar_h = 11;

std::vector<memory_level> bar_levels(const roofline_chart_data& d) {
  std::vector<memory_level> out;
  for (memory_level l : {memory_level::dram, memory_level::l2, memory_level::l1}) {
    bool seen = false;
    for (const auto& k : d.data_only)
      for (const auto& b : k.bars)
        seen |= b.level == l;
    if (seen)
      out.push_back(l);
  }
  return out;
}

std::string rate_tick(double v) {
  if (v <= 0)
    return "0";
  return y_tick_label(v) + "B/s";
}

std::string bandwidth_title(const roofline_chart_data& d, const chart_options& o) {
  if (!o.title.empty())
    return o.title + " \u00b7 bandwidth";
  const std::string device = d.title.rfind("Roofline: ", 0) == 0 ? d.title.substr(10) : d.title;
  return "Bandwidth of kernels without FLOPs: " + device;
}

// The legend row under the axes: topics, then the line styles and the overhead mark.
struct legend_item {
  std::string text, color, topic;
  int kind; // 0 topic swatch, 1 measured roof, 2 theoretical roof, 3 overhead outline
};

std::vector<legend_item> legend_items(const roofline_chart_data& d) {
  std::vector<legend_item> items;
  for (const auto& t : d.topics)
    if (t.data_only > 0)
      items.push_back({fmt::format("{} ({})", t.name, t.data_only), t.color, t.name, 0});
  bool measured = false, theoretical = false, overhead = false;
  for (const auto& r : d.roofs)
    if (r.is_memory && !r.reference)
      (r.source == ceiling_source::measured ? measured : theoretical) = true;
  for (const auto& k : d.data_only)
    overhead |= k.overhead_dominated;
  if (measured)
    items.push_back({"measured roof", "", "", 1});
  if (theoretical)
    items.push_back({"theoretical roof", "", "", 2});
  if (overhead)
    items.push_back({"dashed outline: launch overhead dominates (rates are bounds)", "", "", 3});
  return items;
}

// Where everything goes: the name column, one panel per level, the legend rows, the footer.
struct bandwidth_layout {
  double width = 0, height = 0;
  std::vector<memory_level> levels;
  std::size_t rows = 0;
  double name_w = 120, left = 0, right = 0, gap = 28, panel_w = 0;
  double rows_top = 100, rows_bottom = 0;
  std::vector<legend_item> items;
  std::vector<std::pair<double, double>> at; // x, row of each legend item
  double legend_top = 0, footer_h = 0;
};

bandwidth_layout layout_bandwidth(const roofline_chart_data& d, const chart_options& options) {
  bandwidth_layout L;
  L.width = options.width;
  L.levels = bar_levels(d);
  L.rows = d.data_only.size();
  for (const auto& k : d.data_only)
    L.name_w = std::max(L.name_w, text_width(k.label, 11) + 22);
  L.name_w = std::min(L.name_w, 230.0);
  L.left = 16 + L.name_w;
  L.right = L.width - 16;
  const double n = static_cast<double>(std::max<std::size_t>(L.levels.size(), 1));
  L.panel_w = (L.right - L.left - L.gap * (n - 1)) / n;
  L.rows_bottom = L.rows_top + row_h * static_cast<double>(L.rows);
  L.items = legend_items(d);
  double lx = 16, lrow = 0;
  for (const auto& it : L.items) {
    const double w = 24 + text_width(it.text, 11) + 18;
    if (lx + w > L.right && lx > 16) {
      lx = 16;
      ++lrow;
    }
    L.at.push_back({lx, lrow});
    lx += w;
  }
  L.legend_top = L.rows_bottom + 52;
  const double legend_h = L.items.empty() ? 0 : (lrow + 1) * 18;
  L.footer_h = footer_height(d, L.width - 32);
  L.height = L.legend_top + legend_h + 16 + L.footer_h;
  return L;
}

void draw_heading(canvas& c, const roofline_chart_data& d, const chart_options& options) {
  const double W = options.width;
  roofline_chart_data titled = d;
  titled.title = bandwidth_title(d, options);
  draw_title(c, titled, 16, W - 16);
  std::string subtitle =
      "Achieved bandwidth per memory level against the level's roof; the % is of that roof.";
  if (d.no_flops > d.data_only.size())
    subtitle += fmt::format(" {} more without bytes at these levels (host transfers?) not shown.",
                            d.no_flops - d.data_only.size());
  c.text({16, 50}, fit_text(subtitle, 11, W - 32),
         text_style{11, false, text_anchor::start, "#444444"});
}

// Kernel names, with alternate row shading across every panel.
void draw_names(canvas& c, const roofline_chart_data& d, const bandwidth_layout& L) {
  c.begin({{"class", "bandwidth-names"}});
  for (std::size_t i = 0; i < L.rows; ++i) {
    const auto& k = d.data_only[i];
    const double y = L.rows_top + row_h * static_cast<double>(i);
    if (i % 2 == 1)
      c.rect(16, y, L.right - 16, row_h, paint{"none", "#f6f6f6"});
    c.begin({{"class", "bandwidth-name"},
             {"data-kernel", fmt::format("k{}", k.run_index)},
             {"data-topic", k.topic}},
            k.name);
    c.rect(16, y + 4, 10, 10, paint{"none", k.color}, {}, 2);
    c.text({32, y + 13}, fit_text(k.label, 11, L.name_w - 22),
           text_style{11, false, text_anchor::start, "#222222"});
    c.end();
  }
  c.end();
}

// One level's panel: its roofs, and a linear scale from 0 to past its largest value.
struct level_panel {
  memory_level level;
  double x0 = 0, usable = 0, step = 1, hi = 1;
  const chart_roof* primary = nullptr;
  const chart_roof* reference = nullptr;
  double px(double v) const { return x0 + usable * v / hi; }
};

level_panel make_panel(const roofline_chart_data& d, const bandwidth_layout& L, std::size_t li) {
  level_panel p;
  p.level = L.levels[li];
  p.x0 = L.left + static_cast<double>(li) * (L.panel_w + L.gap);
  for (const auto& r : d.roofs)
    if (r.is_memory && r.level == p.level)
      (r.reference ? p.reference : p.primary) = &r;
  double max_v = 0;
  for (const auto& k : d.data_only)
    for (const auto& b : k.bars)
      if (b.level == p.level)
        max_v = std::max(max_v, b.achieved);
  if (p.primary)
    max_v = std::max(max_v, p.primary->value);
  if (p.reference)
    max_v = std::max(max_v, p.reference->value);
  max_v *= 1.04;
  p.step = nice_step(max_v, 4); // at most 5 steps
  p.hi = std::ceil(max_v / p.step - 1e-9) * p.step;
  // Room on the right of the longest bar for its percentage.
  p.usable = L.panel_w - 34;
  return p;
}

void draw_panel_axis(canvas& c, const level_panel& p, const bandwidth_layout& L) {
  const memory_level l = p.level;
  c.text({p.x0, 72}, label(l), text_style{12, true, text_anchor::start, "#111111"});
  if (p.primary)
    c.text({p.x0, 88},
           fit_text("roof " + p.primary->short_label.substr(label(l).size() + 1) + " " +
                        to_string(p.primary->source),
                    10, L.panel_w),
           text_style{10, false, text_anchor::start, "#333333"}, {{"class", "roof-label"}});
  else
    c.text({p.x0, 88}, "no roof in this run", text_style{10, false, text_anchor::start, "#b00020"});
  for (double v = 0; v <= p.hi * (1 + 1e-9); v += p.step) {
    c.line({p.px(v), L.rows_top}, {p.px(v), L.rows_bottom}, paint{"#e4e4e4", "none", 1});
    c.line({p.px(v), L.rows_bottom}, {p.px(v), L.rows_bottom + 5}, paint{"#555555", "none", 1});
    c.text({p.px(v), L.rows_bottom + 17}, rate_tick(v),
           text_style{10, false, text_anchor::middle, "#333333"}, {{"class", "tick"}});
  }
  c.line({p.x0, L.rows_bottom}, {p.x0 + p.usable, L.rows_bottom}, paint{"#555555", "none", 1});
}

void draw_panel_bars(canvas& c, const roofline_chart_data& d, const level_panel& p,
                     const bandwidth_layout& L) {
  for (std::size_t i = 0; i < L.rows; ++i) {
    const auto& k = d.data_only[i];
    const double y = L.rows_top + row_h * static_cast<double>(i) + (row_h - bar_h) / 2;
    for (const auto& b : k.bars) {
      if (b.level != p.level)
        continue;
      const double w = std::max(1.0, p.px(b.achieved) - p.x0);
      c.begin({{"class", "bar-group"},
               {"data-kernel", fmt::format("k{}", k.run_index)},
               {"data-topic", k.topic}},
              b.tip);
      c.rect(p.x0, y, w, bar_h,
             paint{k.overhead_dominated ? "#333333" : "none", k.color, 1,
                   k.overhead_dominated ? "3 2" : ""},
             {{"class", "bar"},
              {"data-kernel", fmt::format("k{}", k.run_index)},
              {"data-level", to_string(p.level)},
              {"data-achieved", fmt::format("{:.6g}", b.achieved)},
              {"data-roof", fmt::format("{:.6g}", b.roof)},
              {"data-tip", b.tip}});
      if (b.roof > 0)
        c.text({p.x0 + w + 3, y + 9.5}, fmt::format("{:.0f}%", b.pct_of_roof),
               text_style{9.5, false, text_anchor::start, "#333333"}, {{"class", "pct"}});
      c.end();
    }
  }
}

// Roof lines over the bars.
void draw_panel_roofs(canvas& c, const level_panel& p, const bandwidth_layout& L) {
  for (const chart_roof* r : {p.reference, p.primary}) {
    if (!r)
      continue;
    c.begin({}, r->detail);
    c.line({p.px(r->value), L.rows_top - 4}, {p.px(r->value), L.rows_bottom}, roof_paint(*r),
           {{"class", std::string("roof memory") + (r->reference ? " reference" : "")},
            {"data-level", to_string(p.level)},
            {"data-value", fmt::format("{:.6g}", r->value)},
            {"data-source", to_string(r->source)}});
    c.end();
  }
}

void draw_legend(canvas& c, const bandwidth_layout& L) {
  c.begin({{"class", "legend"}});
  for (std::size_t i = 0; i < L.items.size(); ++i) {
    const auto& it = L.items[i];
    const double x = L.at[i].first, y = L.legend_top + L.at[i].second * 18;
    if (it.kind == 0) {
      c.begin({{"class", "legend-topic toggle"}, {"data-topic", it.topic}});
      c.rect(x + 4, y + 2, 14, 10, paint{"none", it.color}, {}, 2);
    } else if (it.kind == 3) {
      c.rect(x + 2, y + 2, 18, 10, paint{"#333333", "#bbbbbb", 1, "3 2"});
    } else {
      chart_roof sample;
      sample.source = it.kind == 1 ? ceiling_source::measured : ceiling_source::theoretical;
      c.line({x, y + 7}, {x + 22, y + 7}, roof_paint(sample));
    }
    c.text({x + 24, y + 11}, it.text, text_style{11, false, text_anchor::start, "#222222"});
    if (it.kind == 0)
      c.end();
  }
  c.end();
}

} // namespace

canvas draw_bandwidth(const roofline_chart_data& d, const chart_options& options) {
  const bandwidth_layout L = layout_bandwidth(d, options);
  const double W = L.width, H = L.height;
  canvas c(W, H);
  c.rect(0, 0, W, H, paint{"none", "#ffffff"}, {{"class", "background"}});
  draw_heading(c, d, options);
  if (L.rows == 0) {
    c.text({16, 80}, "No kernels without FLOPs in this run.",
           text_style{12, false, text_anchor::start, "#222222"});
    draw_footer(c, d, 16, H - L.footer_h, W - 32);
    return c;
  }
  draw_names(c, d, L);
  for (std::size_t li = 0; li < L.levels.size(); ++li) {
    const level_panel p = make_panel(d, L, li);
    c.begin({{"class", "bandwidth-panel"}, {"data-level", to_string(p.level)}});
    draw_panel_axis(c, p, L);
    draw_panel_bars(c, d, p, L);
    draw_panel_roofs(c, p, L);
    c.end();
  }
  c.text({L.left + (L.right - L.left) / 2, L.rows_bottom + 36}, "Achieved bandwidth (bytes/s)",
         text_style{12, false, text_anchor::middle, "#222222"}, {{"class", "axis-title"}});
  draw_legend(c, L);
  draw_footer(c, d, 16, H - L.footer_h, W - 32);
  return c;
}

std::string render_bandwidth_svg(const run& r, const chart_options& options) {
  return to_svg(draw_bandwidth(make_roofline_data(r, options), options));
}

std::string render_bandwidth_terminal(const run& r, const chart_options& options, int columns) {
  const roofline_chart_data d = make_roofline_data(r, options);
  std::string out = bandwidth_title(d, options) + "\n";
  const std::size_t no_bytes = d.no_flops - d.data_only.size();
  const std::string no_bytes_note =
      no_bytes == 0 ? std::string()
                    : fmt::format("{} more kernel{} without FLOPs move{} no bytes at the memory "
                                  "levels drawn.\n",
                                  no_bytes, no_bytes == 1 ? "" : "s", no_bytes == 1 ? "s" : "");
  if (d.data_only.empty())
    return out + "No kernels without FLOPs in this run.\n" + no_bytes_note;
  std::vector<std::string> roofs;
  for (const auto& roof : d.roofs)
    if (roof.is_memory && !roof.reference)
      roofs.push_back(roof.short_label + " " + to_string(roof.source));
  // Roofs on as many lines as `columns` needs, continuation lines indented under the first.
  std::string line = "Roofs:";
  for (std::size_t i = 0; i < roofs.size(); ++i) {
    const std::string item = roofs[i] + (i + 1 < roofs.size() ? "," : "");
    if (line.size() > 6 && line.size() + 1 + item.size() > static_cast<std::size_t>(columns)) {
      out += line + "\n";
      line = "      ";
    }
    line += " " + item;
  }
  out += line + "\n";
  std::size_t name_w = 8;
  for (const auto& k : d.data_only)
    name_w = std::max(name_w, k.label.size());
  name_w = std::min<std::size_t>(name_w, 28);
  // name, level (9), rate (11), pct (5), bar
  bool any_overhead = false;
  for (const auto& k : d.data_only)
    any_overhead |= k.overhead_dominated;
  if (any_overhead)
    out += "overhead: launch overhead dominates the kernel's time (its rates are bounds)\n";
  const int bar_w =
      std::max(10, columns - static_cast<int>(name_w) - 2 - 10 - 12 - 6 - (any_overhead ? 9 : 0));
  for (const auto& k : d.data_only) {
    bool first = true;
    for (const auto& b : k.bars) {
      const std::string name = first ? short_name(k.name, name_w) : std::string();
      std::string bar;
      std::string pct = "   ?";
      if (b.roof > 0) {
        const double frac = std::min(1.0, b.pct_of_roof / 100);
        const int eighths = static_cast<int>(std::lround(frac * bar_w * 8));
        static const char* partial[] = {"",       "\u258f", "\u258e", "\u258d",
                                        "\u258c", "\u258b", "\u258a", "\u2589"};
        for (int i = 0; i < eighths / 8; ++i)
          bar += "\u2588";
        bar += partial[eighths % 8];
        pct = fmt::format("{:3.0f}%", b.pct_of_roof);
      }
      // Pad the name by characters (labels may hold a multi-byte ellipsis).
      std::size_t chars = 0;
      for (unsigned char ch : name)
        chars += (ch & 0xC0) != 0x80 ? 1 : 0;
      out += name + std::string(name_w - std::min(name_w, chars) + 2, ' ');
      out += fmt::format("{:<10}{:>11} {} {}{}\n", label(b.level), format_si(b.achieved, "B/s"),
                         pct, bar, k.overhead_dominated && first ? " overhead" : "");
      first = false;
    }
  }
  return out + no_bytes_note;
}

} // namespace roofkit

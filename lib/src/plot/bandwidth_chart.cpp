// The bandwidth view: kernels without FLOPs (copies, transposes) against each level's roof.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "chart_internal.hpp"
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

// A linear axis end and tick step: 1, 2 or 5 x 10^k, at most 5 steps.
double nice_step(double max_v) {
  const double raw = max_v / 4;
  const double e = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * e >= raw)
      return m * e;
  return 10 * e;
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

} // namespace

canvas draw_bandwidth(const roofline_chart_data& d, const chart_options& options) {
  const double W = options.width;
  const auto levels = bar_levels(d);
  const std::size_t rows = d.data_only.size();

  double name_w = 120;
  for (const auto& k : d.data_only)
    name_w = std::max(name_w, text_width(k.label, 11) + 22);
  name_w = std::min(name_w, 230.0);
  const double left = 16 + name_w;
  const double right = W - 16;
  const double gap = 28;
  const double n = static_cast<double>(std::max<std::size_t>(levels.size(), 1));
  const double panel_w = (right - left - gap * (n - 1)) / n;
  const double rows_top = 100;
  const double rows_bottom = rows_top + row_h * static_cast<double>(rows);

  // The legend row under the axes: topics, then the line styles and the overhead mark.
  struct legend_item {
    std::string text, color, topic;
    int kind; // 0 topic swatch, 1 measured roof, 2 theoretical roof, 3 overhead outline
  };
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
  std::vector<std::pair<double, double>> at; // x, row of each item
  double lx = 16, lrow = 0;
  for (const auto& it : items) {
    const double w = 24 + text_width(it.text, 11) + 18;
    if (lx + w > right && lx > 16) {
      lx = 16;
      ++lrow;
    }
    at.push_back({lx, lrow});
    lx += w;
  }
  const double legend_top = rows_bottom + 52;
  const double legend_h = items.empty() ? 0 : (lrow + 1) * 18;
  const double fh = footer_height(d, W - 32);
  const double H = legend_top + legend_h + 16 + fh;

  canvas c(W, H);
  c.rect(0, 0, W, H, paint{"none", "#ffffff"}, {{"class", "background"}});
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

  if (rows == 0) {
    c.text({16, 80}, "No kernels without FLOPs in this run.",
           text_style{12, false, text_anchor::start, "#222222"});
    draw_footer(c, d, 16, H - fh, W - 32);
    return c;
  }

  // Kernel names, with alternate row shading across every panel.
  c.begin({{"class", "bandwidth-names"}});
  for (std::size_t i = 0; i < rows; ++i) {
    const auto& k = d.data_only[i];
    const double y = rows_top + row_h * static_cast<double>(i);
    if (i % 2 == 1)
      c.rect(16, y, right - 16, row_h, paint{"none", "#f6f6f6"});
    c.begin({{"class", "bandwidth-name"},
             {"data-kernel", fmt::format("k{}", k.run_index)},
             {"data-topic", k.topic}},
            k.name);
    c.rect(16, y + 4, 10, 10, paint{"none", k.color}, {}, 2);
    c.text({32, y + 13}, fit_text(k.label, 11, name_w - 22),
           text_style{11, false, text_anchor::start, "#222222"});
    c.end();
  }
  c.end();

  for (std::size_t li = 0; li < levels.size(); ++li) {
    const memory_level l = levels[li];
    const double x0 = left + static_cast<double>(li) * (panel_w + gap);
    const chart_roof *primary = nullptr, *reference = nullptr;
    for (const auto& r : d.roofs)
      if (r.is_memory && r.level == l)
        (r.reference ? reference : primary) = &r;
    double max_v = 0;
    for (const auto& k : d.data_only)
      for (const auto& b : k.bars)
        if (b.level == l)
          max_v = std::max(max_v, b.achieved);
    if (primary)
      max_v = std::max(max_v, primary->value);
    if (reference)
      max_v = std::max(max_v, reference->value);
    max_v *= 1.04;
    const double step = nice_step(max_v);
    const double hi = std::ceil(max_v / step - 1e-9) * step;
    // Room on the right of the longest bar for its percentage.
    const double usable = panel_w - 34;
    const auto px = [&](double v) { return x0 + usable * v / hi; };

    c.begin({{"class", "bandwidth-panel"}, {"data-level", to_string(l)}});
    c.text({x0, 72}, label(l), text_style{12, true, text_anchor::start, "#111111"});
    if (primary)
      c.text({x0, 88},
             fit_text("roof " + primary->short_label.substr(label(l).size() + 1) + " " +
                          to_string(primary->source),
                      10, panel_w),
             text_style{10, false, text_anchor::start, "#333333"}, {{"class", "roof-label"}});
    else
      c.text({x0, 88}, "no roof in this run", text_style{10, false, text_anchor::start, "#b00020"});
    // Grid and ticks.
    for (double v = 0; v <= hi * (1 + 1e-9); v += step) {
      c.line({px(v), rows_top}, {px(v), rows_bottom}, paint{"#e4e4e4", "none", 1});
      c.line({px(v), rows_bottom}, {px(v), rows_bottom + 5}, paint{"#555555", "none", 1});
      c.text({px(v), rows_bottom + 17}, rate_tick(v),
             text_style{10, false, text_anchor::middle, "#333333"}, {{"class", "tick"}});
    }
    c.line({x0, rows_bottom}, {x0 + usable, rows_bottom}, paint{"#555555", "none", 1});
    // Bars.
    for (std::size_t i = 0; i < rows; ++i) {
      const auto& k = d.data_only[i];
      const double y = rows_top + row_h * static_cast<double>(i) + (row_h - bar_h) / 2;
      for (const auto& b : k.bars) {
        if (b.level != l)
          continue;
        const double w = std::max(1.0, px(b.achieved) - x0);
        c.begin({{"class", "bar-group"},
                 {"data-kernel", fmt::format("k{}", k.run_index)},
                 {"data-topic", k.topic}},
                b.tip);
        c.rect(x0, y, w, bar_h,
               paint{k.overhead_dominated ? "#333333" : "none", k.color, 1,
                     k.overhead_dominated ? "3 2" : ""},
               {{"class", "bar"},
                {"data-kernel", fmt::format("k{}", k.run_index)},
                {"data-level", to_string(l)},
                {"data-achieved", fmt::format("{:.6g}", b.achieved)},
                {"data-roof", fmt::format("{:.6g}", b.roof)},
                {"data-tip", b.tip}});
        if (b.roof > 0)
          c.text({x0 + w + 3, y + 9.5}, fmt::format("{:.0f}%", b.pct_of_roof),
                 text_style{9.5, false, text_anchor::start, "#333333"}, {{"class", "pct"}});
        c.end();
      }
    }
    // Roof lines over the bars.
    for (const chart_roof* r : {reference, primary}) {
      if (!r)
        continue;
      c.begin({}, r->detail);
      c.line({px(r->value), rows_top - 4}, {px(r->value), rows_bottom}, roof_paint(*r),
             {{"class", std::string("roof memory") + (r->reference ? " reference" : "")},
              {"data-level", to_string(l)},
              {"data-value", fmt::format("{:.6g}", r->value)},
              {"data-source", to_string(r->source)}});
      c.end();
    }
    c.end();
  }
  c.text({left + (right - left) / 2, rows_bottom + 36}, "Achieved bandwidth (bytes/s)",
         text_style{12, false, text_anchor::middle, "#222222"}, {{"class", "axis-title"}});

  c.begin({{"class", "legend"}});
  for (std::size_t i = 0; i < items.size(); ++i) {
    const auto& it = items[i];
    const double x = at[i].first, y = legend_top + at[i].second * 18;
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
  draw_footer(c, d, 16, H - fh, W - 32);
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

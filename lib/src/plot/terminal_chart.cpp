// The terminal chart: braille roofs, one glyph per kernel point, key letters, then a key.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <set>

#include <fmt/format.h>

#include "internal/chart_parts.hpp"

namespace roofkit {

namespace {

using chart_detail::short_name;

// xterm-256 colour nearest to "#rrggbb" in the 6x6x6 cube.
int ansi_color(const std::string& hex) {
  if (hex.size() != 7)
    return 7;
  const auto comp = [&](std::size_t i) {
    const long v = std::strtol(hex.substr(i, 2).c_str(), nullptr, 16);
    return static_cast<int>(std::lround(static_cast<double>(v) / 255.0 * 5));
  };
  return 16 + 36 * comp(1) + 6 * comp(3) + comp(5);
}

struct cell {
  std::uint8_t dots = 0; ///< braille bits
  std::string glyph;     ///< overrides the dots when set (one display column)
  int color = -1;        ///< xterm-256 colour, -1 for the default
  bool taken = false;    ///< a marker or a label: nothing else may go here
  bool bold = false;
};

class grid {
public:
  grid(int cols, int rows)
      : cols_(cols), rows_(rows), cells_(static_cast<std::size_t>(cols * rows)) {}
  int cols() const { return cols_; }
  int rows() const { return rows_; }
  cell& at(int c, int r) { return cells_[static_cast<std::size_t>(r * cols_ + c)]; }
  bool inside(int c, int r) const { return c >= 0 && c < cols_ && r >= 0 && r < rows_; }

  void dot(int x, int y, int color) {
    const int c = x / 2, r = y / 4;
    if (!inside(c, r) || x < 0 || y < 0)
      return;
    static constexpr std::array<std::array<std::uint8_t, 4>, 2> bits{
        {{0x01, 0x02, 0x04, 0x40}, {0x08, 0x10, 0x20, 0x80}}};
    cell& ce = at(c, r);
    ce.dots |= bits[static_cast<std::size_t>(x % 2)][static_cast<std::size_t>(y % 4)];
    if (color >= 0 || ce.color < 0)
      ce.color = color;
  }
  // A line of dots; every `skip`-th dot only (1 = solid).
  void line(int x0, int y0, int x1, int y1, int color, int skip = 1) {
    const int dx = std::abs(x1 - x0), dy = -std::abs(y1 - y0);
    const int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
    int err = dx + dy, n = 0;
    while (true) {
      if (n++ % skip == 0)
        dot(x0, y0, color);
      if (x0 == x1 && y0 == y1)
        break;
      const int e2 = 2 * err;
      if (e2 >= dy) {
        err += dy;
        x0 += sx;
      }
      if (e2 <= dx) {
        err += dx;
        y0 += sy;
      }
    }
  }
  // Writes text (ASCII or one-column glyphs) at (c, r) if every cell is free.
  bool put(int c, int r, const std::vector<std::string>& glyphs, int color, bool force = false,
           bool bold = false) {
    for (int i = 0; i < static_cast<int>(glyphs.size()); ++i)
      if (!inside(c + i, r) || (!force && at(c + i, r).taken))
        return false;
    for (int i = 0; i < static_cast<int>(glyphs.size()); ++i) {
      cell& ce = at(c + i, r);
      ce.glyph = glyphs[static_cast<std::size_t>(i)];
      ce.color = color;
      ce.taken = true;
      ce.bold = bold;
    }
    return true;
  }
  bool free_span(int c, int r, int n, bool avoid_dots) {
    for (int i = 0; i < n; ++i) {
      if (!inside(c + i, r) || at(c + i, r).taken || (avoid_dots && at(c + i, r).dots))
        return false;
    }
    return true;
  }

private:
  int cols_, rows_;
  std::vector<cell> cells_;
};

std::vector<std::string> glyphs_of(const std::string& ascii) {
  std::vector<std::string> out;
  for (char ch : ascii)
    out.emplace_back(1, ch);
  return out;
}

std::string paint_text(const std::string& s, int color, bool use_color, bool bold = false) {
  if (!use_color || (color < 0 && !bold))
    return s;
  std::string pre = "\x1b[";
  if (bold)
    pre += "1";
  if (color >= 0)
    pre += fmt::format("{}38;5;{}", bold ? ";" : "", color);
  return pre + "m" + s + "\x1b[0m";
}

const char* level_glyph(memory_level l) {
  switch (l) {
  case memory_level::dram:
    return "\u25cf"; // ●
  case memory_level::l2:
    return "\u25a0"; // ■
  case memory_level::l1:
    return "\u25b2"; // ▲
  }
  return "*";
}

std::string key_of(std::size_t i) {
  static const std::string keys = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return std::string(1, keys[i % keys.size()]);
}

// Wraps "a · b · c" style items into lines of at most `width` columns.
std::vector<std::string> wrap_items(const std::string& head, const std::vector<std::string>& items,
                                    std::size_t width) {
  std::vector<std::string> lines;
  std::string line = head;
  const auto columns = [](const std::string& s) {
    std::size_t n = 0;
    for (unsigned char ch : s)
      n += (ch & 0xC0) != 0x80 ? 1 : 0;
    return n;
  };
  for (const auto& it : items) {
    const std::string sep = line.size() > head.size() ? ", " : "";
    if (columns(line + sep + it) + 1 > width && line.size() > head.size()) { // room for ","
      lines.push_back(line + ",");
      line = std::string(head.size(), ' ') + it;
    } else {
      line += sep + it;
    }
  }
  lines.push_back(line);
  return lines;
}

std::vector<std::string> wrap_words(const std::string& text, std::size_t width) {
  const auto columns = [](const std::string& s) {
    std::size_t n = 0;
    for (unsigned char ch : s)
      n += (ch & 0xC0) != 0x80 ? 1 : 0;
    return n;
  };
  std::vector<std::string> lines;
  std::string line;
  for (const std::string& word : chart_detail::glued_words(text)) {
    if (!line.empty() && columns(line) + 1 + columns(word) > width) {
      lines.push_back(line);
      line = word;
    } else {
      line += (line.empty() ? "" : " ") + word;
    }
  }
  if (!line.empty())
    lines.push_back(line);
  return lines;
}

/// The plot area: its size in cells, and the log axes from values to braille dots.
struct text_frame {
  const roofline_chart_data& d;
  int plot_cols;
  int plot_rows;
  log_axis ax;
  log_axis ay;
  int dx(double v) const { return static_cast<int>(std::lround(ax.to_px(v))); }
  int dy(double v) const { return static_cast<int>(std::lround(ay.to_px(v))); }
};

/// A roof as drawn: its ends in dots.
struct roof_end {
  const chart_roof* roof;
  int x0, y0, x1, y1;
};

/// Draws the roofs (memory up to the highest compute roof, compute from the fastest memory roof)
/// and returns the drawn ends of those that are not references.
std::vector<roof_end> draw_roofs(grid& g, const text_frame& f, int roof_shade) {
  const roofline_chart_data& d = f.d;
  double top_compute = 0, fastest = 0;
  for (const auto& rf : d.roofs)
    if (!rf.reference)
      (rf.is_memory ? fastest : top_compute) =
          std::max(rf.is_memory ? fastest : top_compute, rf.value);
  if (top_compute <= 0)
    top_compute = d.y_max;
  std::vector<roof_end> ends;
  for (const auto& rf : d.roofs) {
    double x0, x1;
    if (rf.is_memory) {
      x0 = std::max(d.x_min, d.y_min / rf.value);
      x1 = std::min(d.x_max, top_compute / rf.value);
    } else {
      x0 = fastest > 0 ? std::max(d.x_min, rf.value / fastest) : d.x_min;
      x1 = d.x_max;
    }
    if (x1 <= x0)
      continue;
    const double y0 = rf.is_memory ? rf.value * x0 : rf.value;
    const double y1 = rf.is_memory ? rf.value * x1 : rf.value;
    const roof_end e{&rf, f.dx(x0), f.dy(y0), f.dx(x1), f.dy(y1)};
    g.line(e.x0, e.y0, e.x1, e.y1, roof_shade, rf.reference ? 3 : 1);
    if (!rf.reference)
      ends.push_back(e);
  }
  return ends;
}

/// Draws the kernels: joins, then markers (taken cells), then key letters next to the rightmost
/// point of each labelled kernel. Returns each kernel's key index and sets `keyed`.
std::vector<std::size_t> draw_kernels(grid& g, const text_frame& f, bool col, std::size_t& keyed) {
  const roofline_chart_data& d = f.d;
  for (std::size_t i = 0; i < d.kernels.size(); ++i) {
    const auto& k = d.kernels[i];
    const int c = col ? ansi_color(k.color) : -1;
    if (k.points.size() > 1)
      g.line(f.dx(k.points.front().intensity), f.dy(k.flops_per_s), f.dx(k.points.back().intensity),
             f.dy(k.flops_per_s), c);
  }
  for (const auto& k : d.kernels) {
    const int c = col ? ansi_color(k.color) : -1;
    for (const auto& p : k.points)
      g.put(f.dx(p.intensity) / 2, f.dy(k.flops_per_s) / 4, {level_glyph(p.level)}, c, true);
  }
  // Key letters for the labelled kernels only (all of them unless the chart colours by topic).
  std::vector<std::size_t> key_index(d.kernels.size(), 0);
  keyed = 0;
  for (std::size_t i = 0; i < d.kernels.size(); ++i)
    key_index[i] = d.kernels[i].labelled ? keyed++ : 0;
  for (std::size_t i = 0; i < d.kernels.size(); ++i) {
    const auto& k = d.kernels[i];
    if (!k.labelled)
      continue;
    const int c = col ? ansi_color(k.color) : -1;
    const int pc = f.dx(k.points.back().intensity) / 2, pr = f.dy(k.flops_per_s) / 4;
    const std::array<std::pair<int, int>, 12> tries{{{1, 0},
                                                     {-1, 0},
                                                     {0, -1},
                                                     {0, 1},
                                                     {1, -1},
                                                     {1, 1},
                                                     {-1, -1},
                                                     {-1, 1},
                                                     {2, 0},
                                                     {-2, 0},
                                                     {2, -1},
                                                     {2, 1}}};
    for (const auto& [ox, oy] : tries)
      if (g.put(pc + ox, pr + oy, {key_of(key_index[i])}, c, false, true))
        break;
  }

  return key_index;
}

/// Short roof tags where they fit: compute roofs at the right end, memory roofs at the top.
void tag_roofs(grid& g, int plot_cols, const std::vector<roof_end>& ends) {
  for (const auto& e : ends) {
    const chart_roof& rf = *e.roof;
    std::string tag = rf.is_memory ? label(rf.level) : label(rf.precisions.front());
    if (!rf.is_memory && rf.precisions.size() > 1)
      tag += "+";
    const int n = static_cast<int>(tag.size());
    if (rf.is_memory) {
      // Left of the line as high up as there is room, else right of it.
      bool done = false;
      for (int side = 0; side < 2 && !done; ++side)
        for (int rr = e.y1 / 4; rr <= e.y0 / 4 && !done; ++rr) {
          const double ydot = rr * 4 + 1.5;
          const double f = e.y0 == e.y1 ? 0 : (ydot - e.y0) / static_cast<double>(e.y1 - e.y0);
          const int cc = static_cast<int>(std::floor((e.x0 + f * (e.x1 - e.x0)) / 2));
          const int start = side == 0 ? cc - n - 1 : cc + 2;
          done = g.free_span(start, rr, n, true) && g.put(start, rr, glyphs_of(tag), -1);
        }
    } else {
      const int rr = e.y0 / 4;
      const int cc = plot_cols - n;
      for (int off : {-1, 1})
        if (g.free_span(cc, rr + off, n, true) && g.put(cc, rr + off, glyphs_of(tag), -1))
          break;
    }
  }
}

/// The plot's rows, each with its y tick label and axis.
void compose_plot_rows(std::vector<std::string>& out, grid& g, const text_frame& f, int label_w,
                       bool col) {
  const roofline_chart_data& d = f.d;
  const int plot_rows = f.plot_rows;
  const int plot_cols = f.plot_cols;
  std::vector<std::string> row_label(static_cast<std::size_t>(plot_rows));
  std::vector<bool> row_tick(static_cast<std::size_t>(plot_rows), false);
  for (int e = static_cast<int>(std::ceil(std::log10(d.y_min) - 1e-9));
       e <= static_cast<int>(std::floor(std::log10(d.y_max) + 1e-9)); ++e) {
    const int rr = f.dy(std::pow(10.0, e)) / 4;
    if (rr < 0 || rr >= plot_rows)
      continue;
    row_label[static_cast<std::size_t>(rr)] = chart_detail::y_tick_label(std::pow(10.0, e));
    row_tick[static_cast<std::size_t>(rr)] = true;
  }
  for (int rr = 0; rr < plot_rows; ++rr) {
    std::string line = fmt::format("{:>{}} ", row_label[static_cast<std::size_t>(rr)], label_w);
    line += row_tick[static_cast<std::size_t>(rr)] ? "\u2524" : "\u2502";
    int run_color = -2;
    std::string run_text;
    bool run_bold = false;
    const auto flush = [&]() {
      if (!run_text.empty())
        line += paint_text(run_text, run_color, col, run_bold);
      run_text.clear();
    };
    for (int cc = 0; cc < plot_cols; ++cc) {
      const cell& ce = g.at(cc, rr);
      std::string s;
      if (!ce.glyph.empty())
        s = ce.glyph;
      else if (ce.dots) {
        const char32_t code = 0x2800 + ce.dots;
        s = {static_cast<char>(0xE0 | (code >> 12)), static_cast<char>(0x80 | ((code >> 6) & 0x3F)),
             static_cast<char>(0x80 | (code & 0x3F))};
      } else
        s = " ";
      const int c = (ce.glyph.empty() && !ce.dots) ? -1 : ce.color;
      if (c != run_color || ce.bold != run_bold) {
        flush();
        run_color = c;
        run_bold = ce.bold;
      }
      run_text += s;
    }
    flush();
    while (!line.empty() && line.back() == ' ')
      line.pop_back();
    out.push_back(line);
  }
}

/// The x axis, its decade labels and its title.
void compose_x_axis(std::vector<std::string>& out, const text_frame& f, int label_w, int columns) {
  const roofline_chart_data& d = f.d;
  const int plot_cols = f.plot_cols;
  std::string axis = std::string(static_cast<std::size_t>(label_w + 1), ' ') + "\u2514";
  std::string ticks(static_cast<std::size_t>(label_w + 2 + plot_cols + 8), ' ');
  std::vector<int> tick_cols(static_cast<std::size_t>(plot_cols), 0);
  int last_end = -1;
  for (int e = static_cast<int>(std::ceil(std::log10(d.x_min) - 1e-9));
       e <= static_cast<int>(std::floor(std::log10(d.x_max) + 1e-9)); ++e) {
    const int cc = f.dx(std::pow(10.0, e)) / 2;
    if (cc < 0 || cc >= plot_cols)
      continue;
    tick_cols[static_cast<std::size_t>(cc)] = 1;
    const std::string lab = chart_detail::x_tick_label(std::pow(10.0, e));
    int start = label_w + 2 + cc - static_cast<int>(lab.size()) / 2;
    start = std::max(start, last_end + 2);
    if (start + static_cast<int>(lab.size()) > static_cast<int>(ticks.size()))
      continue;
    ticks.replace(static_cast<std::size_t>(start), lab.size(), lab);
    last_end = start + static_cast<int>(lab.size());
  }
  for (int cc = 0; cc < plot_cols; ++cc)
    axis += tick_cols[static_cast<std::size_t>(cc)] ? "\u252c" : "\u2500";
  out.push_back(axis);
  while (!ticks.empty() && ticks.back() == ' ')
    ticks.pop_back();
  const std::string xtitle = "FLOP/byte";
  if (ticks.size() + 2 + xtitle.size() <= static_cast<std::size_t>(columns))
    ticks +=
        std::string(static_cast<std::size_t>(columns) - ticks.size() - xtitle.size(), ' ') + xtitle;
  else
    out.push_back(ticks),
        ticks = std::string(static_cast<std::size_t>(columns) - xtitle.size(), ' ') + xtitle;
  out.push_back(ticks);
}

/// The key: roofs, point glyphs, one line per labelled kernel, then what is not drawn and the
/// footer.
void compose_key(std::vector<std::string>& out, const roofline_chart_data& d,
                 const std::vector<std::size_t>& key_index, std::size_t keyed, int columns,
                 bool col, const terminal_options& t) {
  const std::size_t width = static_cast<std::size_t>(columns);
  std::vector<std::string> roof_items;
  for (const auto& rf : d.roofs)
    if (!rf.reference)
      roof_items.push_back(rf.key);
  if (!roof_items.empty())
    for (const auto& l : wrap_items("Roofs: ", roof_items, width))
      out.push_back(l);
  std::string points = "Points: ";
  for (memory_level l : {memory_level::dram, memory_level::l2, memory_level::l1})
    points += std::string(level_glyph(l)) + " " + label(l) + "  ";
  points += "(one row per kernel, joined)";
  out.push_back(points);
  std::size_t name_w = 8;
  const auto chars = [](const std::string& text) {
    std::size_t n = 0;
    for (unsigned char ch : text)
      n += (ch & 0xC0) != 0x80 ? 1 : 0;
    return n;
  };
  for (const auto& k : d.kernels)
    name_w = std::max(name_w, chars(k.label)); // unique labels of at most 28 characters
  for (std::size_t i = 0; i < d.kernels.size(); ++i) {
    const auto& k = d.kernels[i];
    if (!k.labelled)
      continue;
    const chart_point& p = k.points.back();
    const std::string& name = k.label;
    const std::size_t name_cols = chars(name);
    std::string line = fmt::format("{}{} {:>8} FLOP/B {:<4} {:>12}", name,
                                   std::string(name_w - std::min(name_w, name_cols), ' '),
                                   chart_detail::format_number(p.intensity),
                                   label(p.level).substr(0, 4), format_si(k.flops_per_s, "FLOP/s"));
    if (!k.bound.empty()) {
      std::string bound = fmt::format("  {} {:.0f}%", k.bound, k.pct_of_roof);
      if (line.size() + 2 + bound.size() > width)
        bound = fmt::format("  {:.0f}% of roof", k.pct_of_roof);
      line += bound;
    }
    if (k.overhead_dominated && line.size() + 10 <= width)
      line += " overhead";
    out.push_back(paint_text(key_of(key_index[i]), col ? ansi_color(k.color) : -1, col, true) +
                  " " + line);
  }
  std::set<std::string> unkeyed_topics;
  for (const auto& k : d.kernels)
    if (!k.labelled)
      unkeyed_topics.insert(k.topic);
  if (keyed < d.kernels.size())
    for (const auto& l :
         wrap_words(fmt::format("and {} more kernel{} in {} topic{} (the points without a letter; "
                                "the report lists every kernel)",
                                d.kernels.size() - keyed, d.kernels.size() - keyed == 1 ? "" : "s",
                                unkeyed_topics.size(), unkeyed_topics.size() == 1 ? "" : "s"),
                    width))
      out.push_back(l);
  // Kernels without FLOPs: one line (the bandwidth view lists them); other exclusions each.
  if (d.no_flops > 0)
    for (const auto& l :
         wrap_words(fmt::format("{} kernel{} move{} data only (no FLOPs): {}", d.no_flops,
                                d.no_flops == 1 ? "" : "s", d.no_flops == 1 ? "s" : "",
                                t.bandwidth_hint.empty() ? std::string("see the bandwidth view")
                                                         : t.bandwidth_hint),
                    width))
      out.push_back(l);
  for (const auto& e : d.excluded) {
    if (e.no_flops)
      continue;
    for (const auto& l :
         wrap_words("Not plotted: " + short_name(e.name, 40) + ": " + e.reason, width))
      out.push_back(paint_text(l, col ? 161 : -1, col));
  }
  for (const auto& f : d.footer)
    for (const auto& l : wrap_words(f, width))
      out.push_back(l);
  for (const auto& l : wrap_words(d.origin_text, width))
    out.push_back(paint_text(l, d.origin_badge.empty() ? -1 : 166, col));
}

} // namespace

std::string render_roofline_terminal(const run& r, const chart_options& options,
                                     const terminal_options& t) {
  const roofline_chart_data d = make_roofline_data(r, options);
  const int columns = std::max(60, t.columns);
  const int label_w = 6;                       // y tick labels
  const int plot_cols = columns - label_w - 2; // a space and the axis
  const int plot_rows = std::max(10, t.rows);
  grid g(plot_cols, plot_rows);
  const int dots_x = plot_cols * 2, dots_y = plot_rows * 4;
  const text_frame f{d, plot_cols, plot_rows,
                     log_axis{d.x_min, d.x_max, 0, static_cast<double>(dots_x - 1)},
                     log_axis{d.y_min, d.y_max, static_cast<double>(dots_y - 1), 0}};
  const bool col = t.color;
  const int roof_shade = col ? 245 : -1;

  const std::vector<roof_end> ends = draw_roofs(g, f, roof_shade);
  std::size_t keyed = 0;
  const std::vector<std::size_t> key_index = draw_kernels(g, f, col, keyed);
  tag_roofs(g, plot_cols, ends);

  // Compose: title, plot with y ticks, x axis, key.
  std::vector<std::string> out;
  std::string title = d.title;
  if (!d.origin_badge.empty())
    title += "  [" + d.origin_badge + "]";
  if (title.size() > static_cast<std::size_t>(columns))
    title = short_name(title, static_cast<std::size_t>(columns));
  out.push_back(paint_text(title, -1, col, true));
  out.push_back(std::string(static_cast<std::size_t>(label_w - 2), ' ') + "FLOP/s");
  compose_plot_rows(out, g, f, label_w, col);
  compose_x_axis(out, f, label_w, columns);
  compose_key(out, d, key_index, keyed, columns, col, t);

  std::string text;
  for (const auto& l : out)
    text += l + "\n";
  return text;
}

} // namespace roofkit

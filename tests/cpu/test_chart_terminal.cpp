// The terminal chart: fits the width, colour only when asked, points in the cells the numbers
// imply, a key for every kernel.
#include <cmath>
#include <sstream>
#include <vector>

#include <gtest/gtest.h>

#include "roofkit/plot.hpp"
#include "test_chart_runs.hpp"

namespace {

using namespace roofkit;

// Display columns of a UTF-8 line without ANSI escapes (every code point is one column here:
// braille, box drawing and the marker glyphs are all narrow).
std::size_t columns(const std::string& line) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\x1b') {
      while (i < line.size() && line[i] != 'm')
        ++i;
      continue;
    }
    n += (static_cast<unsigned char>(line[i]) & 0xC0) != 0x80 ? 1 : 0;
  }
  return n;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string l;
  while (std::getline(in, l))
    out.push_back(l);
  return out;
}

// The code points of a line (escape-free), one string per column.
std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < line.size();) {
    std::size_t n = 1;
    const auto b = static_cast<unsigned char>(line[i]);
    if (b >= 0xF0)
      n = 4;
    else if (b >= 0xE0)
      n = 3;
    else if (b >= 0xC0)
      n = 2;
    out.push_back(line.substr(i, n));
    i += n;
  }
  return out;
}

TEST(chart_terminal, fits_80_columns_without_colour) {
  for (const run& r : {chart_test::mixed_run(), chart_test::crowded_run(30)}) {
    const std::string text = render_roofline_terminal(r, {}, {80, 20, false});
    EXPECT_EQ(text.find('\x1b'), std::string::npos);
    for (const auto& l : lines(text))
      EXPECT_LE(columns(l), 80u) << l;
    EXPECT_NE(text.find("\u2824"), std::string::npos); // braille line dots
  }
  const std::string wide = render_roofline_terminal(chart_test::mixed_run(), {}, {120, 30, false});
  for (const auto& l : lines(wide))
    EXPECT_LE(columns(l), 120u) << l;
}

TEST(chart_terminal, colour_only_when_asked) {
  const std::string text = render_roofline_terminal(chart_test::mixed_run(), {}, {80, 20, true});
  EXPECT_NE(text.find("\x1b[38;5;"), std::string::npos);
  EXPECT_NE(text.find("\x1b[0m"), std::string::npos);
  for (const auto& l : lines(text))
    EXPECT_LE(columns(l), 80u) << l;
}

TEST(chart_terminal, points_sit_in_the_cells_their_numbers_imply) {
  const run r = chart_test::mixed_run();
  const auto d = make_roofline_data(r);
  const std::string text = render_roofline_terminal(r, {}, {80, 20, false});
  const auto ls = lines(text);
  // Layout: title, "FLOP/s", then 20 plot rows that start with an 8-column gutter.
  const int first_row = 2, gutter = 8, plot_cols = 80 - gutter, rows = 20;
  const auto cell_of = [&](double intensity, double flops) {
    const double fx = std::log10(intensity / d.x_min) / std::log10(d.x_max / d.x_min);
    const double fy = std::log10(flops / d.y_min) / std::log10(d.y_max / d.y_min);
    const long dx = std::lround(fx * (2 * plot_cols - 1));
    const long dy = std::lround((1 - fy) * (4 * rows - 1));
    return std::pair<long, long>{dx / 2, dy / 4};
  };
  const std::vector<std::pair<std::size_t, std::string>> expect{{2, "\u25cf"}, {3, "\u25cf"}};
  for (const auto& [index, glyph] : expect) {
    const auto& k = r.kernels[index];
    double flops = 0;
    for (const auto& [p, v] : k.flops)
      flops += v;
    const auto [col, row] =
        cell_of(flops / k.bytes.at(memory_level::dram), flops / k.time.median_s);
    const auto c = cells(ls.at(static_cast<std::size_t>(first_row + row)));
    ASSERT_GT(c.size(), static_cast<std::size_t>(gutter + col)) << ls[first_row + row];
    EXPECT_EQ(c[static_cast<std::size_t>(gutter + col)], glyph) << k.name << "\n" << text;
  }
  // The coalesced kernel has DRAM, L2 and L1 points on one row.
  {
    const auto& k = r.kernels[0];
    const double flops = k.flops.at(precision::fp32);
    for (const auto& [level, glyph] :
         std::vector<std::pair<memory_level, std::string>>{{memory_level::dram, "\u25cf"},
                                                           {memory_level::l2, "\u25a0"},
                                                           {memory_level::l1, "\u25b2"}}) {
      const auto [col, row] = cell_of(flops / k.bytes.at(level), flops / k.time.median_s);
      const auto c = cells(ls.at(static_cast<std::size_t>(first_row + row)));
      EXPECT_EQ(c.at(static_cast<std::size_t>(gutter + col)), glyph) << to_string(level);
    }
  }
}

TEST(chart_terminal, key_lists_kernels_roofs_and_exclusions) {
  const std::string text = render_roofline_terminal(chart_test::mixed_run(), {}, {80, 20, false});
  EXPECT_NE(text.find("[ANALYTICAL]"), std::string::npos);
  EXPECT_NE(text.find("A coalesced_access"), std::string::npos);
  EXPECT_NE(text.find("C sgemm_8192"), std::string::npos);
  EXPECT_NE(text.find("51.3 TFLOP/s  FP32 77%"), std::string::npos) << text;
  EXPECT_NE(text.find("Roofs: DRAM 3.02 TB/s @ 2619 MHz measured (3.35 TB/s @ 2619 MHz"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("FP32 66.9 TFLOP/s @ 1980 MHz theoretical"), std::string::npos);
  EXPECT_NE(text.find("1 kernel moves data only (no FLOPs): see the bandwidth view"),
            std::string::npos);
  EXPECT_NE(text.find("Not plotted: broken_kernel: failed"), std::string::npos);
  EXPECT_NE(text.find("clocks SM 1980 MHz, memory 2619 MHz"), std::string::npos);
  // Each key letter appears in the plot next to its kernel.
  for (const char* key : {"A", "B", "C", "D"}) {
    bool found = false;
    const auto ls = lines(text);
    for (int i = 2; i < 22; ++i)
      found |= ls[static_cast<std::size_t>(i)].find(key) != std::string::npos;
    EXPECT_TRUE(found) << key;
  }
}

} // namespace

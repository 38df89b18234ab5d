// Terminal and SVG charts of the three sweeps.
#include <gtest/gtest.h>

#include "roofkit/occupancy.hpp"
#include "roofkit/plot.hpp"

namespace {

std::vector<roofkit::occupancy_sweep> sweeps() {
  const auto& h100 = roofkit::find_arch("sm_90");
  roofkit::launch_params l;
  l.threads_per_block = 256;
  l.registers_per_thread = 48;
  l.dynamic_smem = 10000;
  std::vector<roofkit::occupancy_sweep> s;
  for (auto v : {roofkit::occupancy_variable::block_size, roofkit::occupancy_variable::registers,
                 roofkit::occupancy_variable::shared_memory})
    s.push_back(roofkit::sweep_occupancy(h100, l, v));
  return s;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1))
    ++n;
  return n;
}

TEST(chart, terminal_marks_the_current_launch) {
  const auto s = sweeps();
  const std::string chart = roofkit::sweep_terminal_chart(s[1], 64, 10);
  EXPECT_EQ(chart.rfind("Active warps per SM vs registers per thread\n", 0), 0u);
  EXPECT_NE(chart.find('@'), std::string::npos);
  EXPECT_NE(chart.find("^ current: 48 registers: 5 blocks, 40 warps, 62.5%"), std::string::npos)
      << chart;
  EXPECT_NE(chart.find("64 |"), std::string::npos);
  // 10 rows + axis + labels + marker + legend + title.
  EXPECT_EQ(count(chart, "\n"), 15u);
  // The 48-register column is filled to 40/64 of 10 rows = 6 rows (6.25, cells centred).
  EXPECT_EQ(count(chart, "@"), 6u);
}

TEST(chart, svg_has_three_panels_and_markers) {
  const std::string svg = roofkit::sweeps_svg(sweeps(), "Occupancy on sm_90 <H100 & co>", "cap");
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_EQ(count(svg, "<polyline"), 3u);
  EXPECT_EQ(count(svg, "current launch:"), 3u);
  EXPECT_NE(svg.find("&lt;H100 &amp; co&gt;"), std::string::npos); // escaped
  EXPECT_NE(svg.find("Active warps per SM vs shared memory per block"), std::string::npos);
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  EXPECT_EQ(count(svg, "<svg"), 1u);
}

} // namespace

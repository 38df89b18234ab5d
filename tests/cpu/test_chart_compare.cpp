// The before/after chart: an arrow per matched kernel from its before point to its after point.
#include <cmath>

#include <gtest/gtest.h>

#include "roofkit/plot.hpp"
#include "test_chart_geometry.hpp"
#include "test_chart_runs.hpp"
#include "test_chart_xml.hpp"

namespace {

using namespace roofkit;
using chart_test::xml_element;

TEST(chart_compare, arrows_join_before_and_after_points) {
  const run before = chart_test::mixed_run();
  run after = chart_test::mixed_run();
  after.kernels[1].bytes[memory_level::dram] = 536870912.0; // uncoalesced, fixed
  after.kernels[1].time.median_s = 230e-6;
  after.kernels[3].name = "hgemm_new"; // only in after; hgemm_bf16_8192 only in before

  chart_frame f;
  const canvas c = draw_compare(before, after, {}, &f);
  const auto root = chart_test::parse_xml(to_svg(c));
  const auto groups = root->find_all([](const xml_element& e) { return e.has_class("kernel"); });
  ASSERT_EQ(groups.size(), 5u); // coalesced, uncoalesced, sgemm (both), hgemm (before), new

  int arrows = 0;
  for (const auto* g : groups) {
    const auto b = g->find_all([](const xml_element& e) { return e.has_class("before"); });
    const auto a = g->find_all([](const xml_element& e) { return e.has_class("after"); });
    for (const auto* p : b) {
      const auto at = chart_test::parse_translate(p->attr("transform"));
      EXPECT_NEAR(at.x, f.x.to_px(std::stod(p->attr("data-intensity"))), 0.006);
      EXPECT_NEAR(at.y, f.y.to_px(std::stod(p->attr("data-flops-per-s"))), 0.006);
    }
    const auto lines = g->find_all([](const xml_element& e) { return e.has_class("arrow"); });
    if (b.size() == 1 && a.size() == 1) {
      const auto pb = chart_test::parse_translate(b[0]->attr("transform"));
      const auto pa = chart_test::parse_translate(a[0]->attr("transform"));
      if (std::hypot(pa.x - pb.x, pa.y - pb.y) < 20) {
        EXPECT_TRUE(lines.empty()); // no arrow when nothing moved
        continue;
      }
      ASSERT_EQ(lines.size(), 1u);
      const chart_test::pt s{std::stod(lines[0]->attr("x1")), std::stod(lines[0]->attr("y1"))};
      const chart_test::pt e{std::stod(lines[0]->attr("x2")), std::stod(lines[0]->attr("y2"))};
      EXPECT_LT(std::hypot(s.x - pb.x, s.y - pb.y), 8);
      // Points from before to after.
      const double dot = ((e.x - s.x) * (pa.x - pb.x) + (e.y - s.y) * (pa.y - pb.y)) /
                         (std::hypot(e.x - s.x, e.y - s.y) * std::hypot(pa.x - pb.x, pa.y - pb.y));
      EXPECT_GT(dot, 0.9999);
      ++arrows;
    } else {
      EXPECT_TRUE(lines.empty());
    }
  }
  EXPECT_EQ(arrows, 1);
  std::string text;
  for (const auto* t : root->find_all([](const xml_element& e) { return e.name == "text"; }))
    text += t->text + " ";
  EXPECT_NE(text.find("uncoalesced_access  4.29\u00d7 faster"), std::string::npos) << text;
  EXPECT_NE(text.find("coalesced_access  same time"), std::string::npos);
  EXPECT_NE(text.find("hgemm_bf16_8192  (before only)"), std::string::npos);
  EXPECT_NE(text.find("hgemm_new  (after only)"), std::string::npos);
  EXPECT_NE(text.find("Both runs: NVIDIA H100 80GB HBM3"), std::string::npos);
}

TEST(chart_compare, same_name_kernels_match_in_order) {
  run before = chart_test::h100_run();
  before.kernels = {chart_test::kernel("k", precision::fp32, 1e9, 1e9, 1e-3),
                    chart_test::kernel("k", precision::fp32, 1e9, 1e8, 1e-3)};
  run after = before;
  after.kernels[1].time.median_s = 0.5e-3;
  const auto root = chart_test::parse_xml(render_compare_svg(before, after));
  std::string text;
  for (const auto* t : root->find_all([](const xml_element& e) { return e.name == "text"; }))
    text += t->text + "|";
  // Matched in order, and told apart on the chart: the second "k" is labelled "k #2".
  EXPECT_NE(text.find("|k  same time"), std::string::npos) << text;
  EXPECT_NE(text.find("|k #2 grid 1  2.00\u00d7 faster"), std::string::npos) << text;
}

} // namespace

// Layout geometry: intersection tests, text footprints and the label placer.
#include <cmath>

#include <gtest/gtest.h>

#include "roofkit/plot.hpp"

namespace {

using namespace roofkit;

TEST(chart_layout, intersections) {
  const quad a = box_quad(100, 100, 220, 113);
  EXPECT_TRUE(intersects(a, box_quad(210, 110, 300, 130)));
  EXPECT_FALSE(intersects(a, box_quad(221, 100, 300, 113)));
  EXPECT_TRUE(intersects(a, point2{50, 105}, point2{150, 105}));
  EXPECT_FALSE(intersects(a, point2{50, 105}, point2{99, 105}));
  EXPECT_FALSE(intersects(a, point2{90, 90}, point2{95, 300}));
  // A diagonal that passes by the corner but not through the box.
  EXPECT_FALSE(intersects(a, point2{200, 90}, point2{240, 105}));
  EXPECT_TRUE(intersects(a, point2{200, 90}, point2{240, 130}));
  EXPECT_TRUE(segments_intersect({0, 0}, {10, 10}, {0, 10}, {10, 0}));
  EXPECT_FALSE(segments_intersect({0, 0}, {10, 10}, {0, 1}, {9, 10}));
  const point2 n = nearest_point(box_quad(0, 0, 10, 10), {20, 5});
  EXPECT_DOUBLE_EQ(n.x, 10);
  EXPECT_DOUBLE_EQ(n.y, 5);
}

TEST(chart_layout, text_footprint_follows_font_and_rotation) {
  // DejaVu Sans: digits are 0.636 em wide.
  EXPECT_NEAR(text_width("0000", 10), 25.44, 1e-9);
  EXPECT_NEAR(text_width("\u00b5s", 10), 6.36 + 5.21, 1e-9);
  const quad flat = text_quad({10, 50}, 100, 10);
  EXPECT_NEAR(flat.corners[0].y, 50 - 9.28, 1e-9);
  EXPECT_NEAR(flat.corners[2].y, 50 + 2.36, 1e-9);
  EXPECT_NEAR(flat.corners[1].x, 110, 1e-9);
  const quad up = text_quad({0, 0}, 100, 10, -90); // reads bottom to top
  EXPECT_NEAR(up.corners[1].x, -9.28, 1e-9);       // ascent on the left
  EXPECT_NEAR(up.corners[1].y, -100, 1e-9);
  EXPECT_NEAR(up.corners[3].x, 2.36, 1e-9); // descent on the right
  EXPECT_NEAR(up.corners[3].y, 0, 1e-9);
}

TEST(chart_layout, placer_keeps_labels_apart_and_off_obstacles) {
  label_placer p(0, 0, 600, 400);
  p.add_obstacle(point2{0, 300}, point2{600, 0}); // a roof line
  std::vector<quad> placed;
  std::vector<point2> anchors;
  for (int i = 0; i < 12; ++i)
    anchors.push_back({100.0 + 3 * i, 300.0 - 1.0 * i});
  for (const auto& a : anchors)
    p.add_obstacle(box_quad(a.x - 5, a.y - 5, a.x + 5, a.y + 5));
  std::vector<double> widths(anchors.size(), 90);
  const auto column = p.place_stack(anchors, widths, 13, 6);
  for (std::size_t i = 0; i < column.size(); ++i) {
    ASSERT_TRUE(column[i]) << i;
    EXPECT_TRUE(column[i]->leader);
    EXPECT_FALSE(intersects(column[i]->box, point2{0, 300}, point2{600, 0}));
    placed.push_back(column[i]->box);
  }
  const auto lone = p.place({500, 350}, 60, 13, 7, 6, 0);
  ASSERT_TRUE(lone);
  EXPECT_FALSE(lone->leader);
  EXPECT_NEAR(lone->box.corners[0].x, 507, 1e-9); // right of the point first
  placed.push_back(lone->box);
  for (std::size_t i = 0; i < placed.size(); ++i) {
    for (std::size_t j = i + 1; j < placed.size(); ++j)
      EXPECT_FALSE(intersects(placed[i], placed[j])) << i << " " << j;
    for (const auto& a : anchors)
      EXPECT_FALSE(intersects(placed[i], box_quad(a.x - 5, a.y - 5, a.x + 5, a.y + 5)));
  }
}

TEST(chart_layout, number_formats) {
  EXPECT_EQ(format_si(3.352e12, "B/s"), "3.35 TB/s");
  EXPECT_EQ(format_si(989.4e12, "FLOP/s"), "989 TFLOP/s");
  EXPECT_EQ(format_si(66.9e12, "FLOP/s"), "66.9 TFLOP/s");
  EXPECT_EQ(format_si(219.13e-6, "s"), "219 \u00b5s");
  EXPECT_EQ(format_si(999.96e9, "B/s"), "1.00 TB/s");
  EXPECT_EQ(format_si(0, "B"), "0 B");
  const log_axis x{0.01, 1000, 100, 600};
  EXPECT_DOUBLE_EQ(x.to_px(0.01), 100);
  EXPECT_DOUBLE_EQ(x.to_px(1000), 600);
  EXPECT_NEAR(x.to_px(1), 300, 1e-9); // 2 of 5 decades
  EXPECT_NEAR(x.from_px(400), 10, 1e-12);
  EXPECT_EQ(level_marker(memory_level::dram), marker_shape::circle);
  EXPECT_NE(kernel_color(0), kernel_color(1));
}

} // namespace

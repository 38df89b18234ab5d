// Cliff detection on synthetic series: noise, plateaus, single steps, drifts; occupancy steps;
// the pairing of both and the causes named.
#include <random>

#include <gtest/gtest.h>

#include "roofkit/cliff.hpp"

namespace roofkit {
namespace {

std::vector<series_point> series(const std::vector<double>& values, double spread = 0.01) {
  std::vector<series_point> s;
  for (std::size_t i = 0; i < values.size(); ++i)
    s.push_back({double(i), values[i], spread});
  return s;
}

TEST(CliffDetect, PlateauHasNoChange) {
  EXPECT_TRUE(find_changes(series(std::vector<double>(30, 100.0))).empty());
  EXPECT_TRUE(find_changes({}).empty());
  EXPECT_TRUE(find_changes(series({5})).empty());
}

TEST(CliffDetect, NoiseBelowTheThresholdIsNoChange) {
  std::mt19937 rng(12345);
  std::uniform_real_distribution<double> noise(-0.02, 0.02);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<double> v;
    for (int i = 0; i < 40; ++i)
      v.push_back(100 * (1 + noise(rng)));
    EXPECT_TRUE(find_changes(series(v, 0.02)).empty()) << "trial " << trial;
  }
}

TEST(CliffDetect, SingleDropIsFoundAtItsPoint) {
  const auto c = find_changes(series({100, 101, 99, 100, 80, 81, 79, 80}));
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].from, 3u);
  EXPECT_EQ(c[0].at, 4u);
  EXPECT_TRUE(c[0].drop());
  EXPECT_NEAR(c[0].relative, -0.2, 1e-12);
  EXPECT_DOUBLE_EQ(c[0].before, 100);
  EXPECT_DOUBLE_EQ(c[0].after, 80);
}

TEST(CliffDetect, SingleRiseAndTwoSteps) {
  const auto up = find_changes(series({50, 50, 50, 75, 75}));
  ASSERT_EQ(up.size(), 1u);
  EXPECT_EQ(up[0].at, 3u);
  EXPECT_FALSE(up[0].drop());
  const auto two = find_changes(series({100, 100, 75, 75, 75, 50, 50}));
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0].at, 2u);
  EXPECT_EQ(two[1].at, 5u);
  EXPECT_NEAR(two[1].relative, -1.0 / 3, 1e-12);
}

TEST(CliffDetect, ChangeWithinTheSpreadIsNoise) {
  // 10% drop, but each point spreads 8%: 2 x 8% = 16% needed.
  EXPECT_TRUE(find_changes(series({100, 100, 90, 90}, 0.08)).empty());
  // The same drop with a tight spread counts.
  EXPECT_EQ(find_changes(series({100, 100, 90, 90}, 0.01)).size(), 1u);
  // The factor is configurable.
  cliff_options o;
  o.spread_factor = 1;
  EXPECT_EQ(find_changes(series({100, 100, 90, 90}, 0.08), o).size(), 1u);
}

TEST(CliffDetect, ThresholdIsConfigurable) {
  const auto s = series({100, 100, 96, 96}, 0.001);
  EXPECT_TRUE(find_changes(s).empty());
  cliff_options o;
  o.threshold = 0.03;
  EXPECT_EQ(find_changes(s, o).size(), 1u);
}

TEST(CliffDetect, SlowDriftIsReportedAsASpan) {
  // 2% per point: no single jump counts, the sum passes 5% at index 3.
  const auto c = find_changes(series({100, 98, 96, 94, 94, 94}, 0.001));
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].from, 0u);
  EXPECT_EQ(c[0].at, 3u);
  EXPECT_NEAR(c[0].relative, -0.06, 1e-12);
}

TEST(CliffDetect, UnmeasuredPointsAreSkipped) {
  const auto c = find_changes(series({100, 0, 100, std::nan(""), 70, 70}));
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].from, 2u);
  EXPECT_EQ(c[0].at, 4u);
}

TEST(CliffDetect, PredictedSteps) {
  const std::vector<predicted_point> p = {{1.0, 4, "warps"},      {1.0, 4, "warps"},
                                          {0.75, 3, "registers"}, {0.75, 3, "registers"},
                                          {0.5, 2, "registers"},  {1.0, 4, "warps"}};
  const auto s = find_steps(p);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].at, 2u);
  EXPECT_EQ(s[0].blocks_before, 4);
  EXPECT_EQ(s[0].blocks_after, 3);
  EXPECT_EQ(s[0].cause, "registers");
  EXPECT_EQ(s[1].at, 4u);
  EXPECT_EQ(s[2].at, 5u);
  EXPECT_EQ(s[2].cause, "registers"); // a rise: the limiter that stopped limiting
  EXPECT_TRUE(find_steps({{0.5, 2, "x"}, {0.5, 4, "y"}}).empty()); // same occupancy
}

TEST(CliffDetect, MatchingVerdicts) {
  std::vector<predicted_step> steps(3);
  steps[0] = {1, 2, 1.0, 0.75, 4, 3, "registers"};
  steps[1] = {4, 5, 0.75, 0.5, 3, 2, "registers"};
  steps[2] = {6, 7, 0.5, 1.0, 2, 4, "shared_memory"};
  std::vector<measured_change> changes(3);
  changes[0] = {1, 2, 100, 80, -0.2};    // with steps[0], same direction
  changes[1] = {6, 7, 80, 60, -0.25};    // with steps[2] (a rise): opposite
  changes[2] = {8, 9, 60, 40, -1.0 / 3}; // no step
  const auto e = match_cliffs(steps, changes);
  ASSERT_EQ(e.size(), 4u);
  EXPECT_EQ(e[0].verdict, cliff_verdict::agree);
  EXPECT_EQ(e[0].at, 2u);
  EXPECT_EQ(e[1].verdict, cliff_verdict::predicted_only);
  EXPECT_EQ(e[1].at, 5u);
  EXPECT_FALSE(e[1].change);
  EXPECT_EQ(e[2].verdict, cliff_verdict::opposite);
  EXPECT_EQ(e[3].verdict, cliff_verdict::measured_only);
  EXPECT_FALSE(e[3].step);
  EXPECT_EQ(to_string(cliff_verdict::predicted_only), "predicted only");
}

TEST(CliffDetect, ADriftPairsWithOneStepOnly) {
  std::vector<predicted_step> steps(2);
  steps[0] = {0, 1, 1.0, 0.75, 4, 3, "registers"};
  steps[1] = {1, 2, 0.75, 0.5, 3, 2, "registers"};
  const std::vector<measured_change> changes = {{0, 3, 100, 90, -0.1}};
  const auto e = match_cliffs(steps, changes);
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].verdict, cliff_verdict::predicted_only);
  EXPECT_EQ(e[1].verdict, cliff_verdict::agree); // the one nearest the end of the drift
}

// A register sweep as the seeds tell it: 31..33 registers at 512 threads, the step at 33.
cliff_result register_cliff(double slowdown) {
  cliff_result r;
  r.kernel = "test/fold";
  r.axis = sweep_axis::regs;
  r.range = {30, 34, 1, false};
  r.rate_name = "bandwidth";
  r.rate_unit = "B/s";
  r.l2_bytes = 50 << 20;
  for (int regs = 30; regs <= 34; ++regs) {
    cliff_point p;
    p.value = regs;
    p.registers = regs;
    p.block = 512;
    p.grid = 16384;
    p.active_blocks = regs <= 32 ? 4 : 3;
    p.occupancy_theoretical = regs <= 32 ? 1.0 : 0.75;
    p.limiter = regs <= 32 ? "warps" : "registers";
    p.local_bytes = regs < 32 ? 8 * (32 - regs) : 0;
    p.time_median_s = regs <= 32 ? 1e-3 : 1e-3 * slowdown;
    p.rate = 1e12 / p.time_median_s * 1e-3;
    p.spread = 0.01;
    p.waves = double(p.grid) / (p.active_blocks * 132);
    r.points.push_back(p);
  }
  return r;
}

TEST(CliffDetect, AnalyzeAgreesWhenTheStepCostsTime) {
  auto r = register_cliff(1.25);
  analyze_cliffs(r);
  ASSERT_EQ(r.steps.size(), 1u);
  EXPECT_EQ(r.steps[0].at, 3u);
  ASSERT_EQ(r.changes.size(), 1u);
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_EQ(r.events[0].verdict, cliff_verdict::agree);
  EXPECT_EQ(r.events[0].cause, "registers");
}

TEST(CliffDetect, AnalyzeSaysPredictedOnlyWhenTimeHolds) {
  auto r = register_cliff(1.02);
  analyze_cliffs(r);
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_EQ(r.events[0].verdict, cliff_verdict::predicted_only);
  EXPECT_NE(r.events[0].cause.find("registers: rate -2.0%"), std::string::npos)
      << r.events[0].cause;
}

TEST(CliffDetect, SkippedPointsDoNotTakePart) {
  auto r = register_cliff(1.25);
  r.points[1].status = "skipped";
  r.points[1].rate = 0;
  analyze_cliffs(r);
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_EQ(r.events[0].at, 3u); // indices refer to r.points, not to the measured subset
  EXPECT_EQ(r.events[0].step->from, 2u);
}

TEST(CliffDetect, ExplainsSpillsCacheLevelsAndWaves) {
  auto r = register_cliff(1.0);
  measured_change c{0, 1, 1, 0.8, -0.2};
  EXPECT_NE(explain_change(r, c).find("local memory (spills) 16 -> 8 bytes"), std::string::npos)
      << explain_change(r, c);
  r.points[0].spill_stores = 28;
  r.points[1].spill_stores = 12;
  EXPECT_NE(explain_change(r, c).find("spill stores"), std::string::npos);

  cliff_result s;
  s.axis = sweep_axis::size;
  s.l2_bytes = 50e6;
  s.l1_bytes = 256 * 1024;
  for (double ws : {32e6, 64e6}) {
    cliff_point p;
    p.working_set_bytes = ws;
    p.time_median_s = 1e-3;
    p.waves = 10;
    s.points.push_back(p);
  }
  EXPECT_NE(explain_change(s, {0, 1, 1, 0.5, -0.5}).find("crosses the L2"), std::string::npos);
  s.points[0].working_set_bytes = 128 * 1024;
  s.points[1].working_set_bytes = 512 * 1024;
  EXPECT_NE(explain_change(s, {0, 1, 1, 0.5, -0.5}).find("crosses the L1"), std::string::npos);

  cliff_result w;
  for (double waves : {1.0, 1.2}) {
    cliff_point p;
    p.waves = waves;
    p.time_median_s = 1e-3;
    w.points.push_back(p);
  }
  EXPECT_NE(explain_change(w, {0, 1, 1, 0.7, -0.3}).find("waves 1.00 -> 1.20"), std::string::npos);
  w.points[1].waves = 1.0;
  EXPECT_EQ(explain_change(w, {0, 1, 1, 0.7, -0.3}), "not explained by the recorded data");
}

} // namespace
} // namespace roofkit

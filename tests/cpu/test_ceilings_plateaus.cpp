// Plateau detection and the least-squares fit on synthetic working-set sweeps.
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "roofkit/ceilings.hpp"

using roofkit::find_plateaus;
using roofkit::sweep_point;

namespace {

struct level {
  double up_to; // working sets up to this size are served at `bandwidth`
  double bandwidth;
};

// Two launches per working set (passes p and 2p, about 512 MiB and 1 GiB moved), with a
// fixed latency, a smooth transition between levels and multiplicative noise.
std::vector<sweep_point> sweep(const std::vector<level>& levels, double noise, unsigned seed,
                               double latency = 5e-6) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> n(0.0, noise);
  std::vector<sweep_point> out;
  for (double ws = 16 * 1024.0; ws <= 512.0 * 1024 * 1024; ws *= std::sqrt(2.0)) {
    // Harmonic blend over the half octave around each boundary.
    double inverse = 0;
    for (std::size_t i = 0; i < levels.size(); ++i) {
      const double lo = i == 0 ? 0 : levels[i - 1].up_to;
      if (ws <= levels[i].up_to || i + 1 == levels.size()) {
        const double edge = i == 0 ? 1e300 : lo * 1.5;
        if (i > 0 && ws < edge) {
          const double f = (ws - lo) / (edge - lo);
          inverse = f / levels[i].bandwidth + (1 - f) / levels[i - 1].bandwidth;
        } else {
          inverse = 1 / levels[i].bandwidth;
        }
        break;
      }
    }
    const double passes = std::ceil(512.0 * 1024 * 1024 / ws);
    for (double p : {passes, 2 * passes}) {
      const double bytes = p * ws;
      out.push_back({ws, bytes, (latency + bytes * inverse) * std::exp(n(rng))});
    }
  }
  return out;
}

constexpr double MiB = 1024.0 * 1024;

} // namespace

TEST(plateaus, single_level_exact) {
  const auto pts = sweep({{1e300, 3.0e12}}, 0.0, 1);
  const auto p = find_plateaus(pts);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_NEAR(p[0].bandwidth / 3.0e12, 1.0, 1e-9);
  EXPECT_NEAR(p[0].latency_s, 5e-6, 1e-12);
  EXPECT_DOUBLE_EQ(p[0].working_set_min, 16 * 1024.0);
  EXPECT_LT(p[0].rms_relative_residual, 1e-9);
}

TEST(plateaus, two_levels_with_noise) {
  const auto pts = sweep({{32 * MiB, 8.2e12}, {1e300, 3.2e12}}, 0.02, 7);
  const auto p = find_plateaus(pts);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_NEAR(p[0].bandwidth / 8.2e12, 1.0, 0.04); // 2% noise per launch
  EXPECT_NEAR(p[1].bandwidth / 3.2e12, 1.0, 0.04);
  EXPECT_LE(p[0].working_set_max, 33 * MiB);
  EXPECT_GE(p[0].working_set_max, 16 * MiB);
  EXPECT_GE(p[1].working_set_min, 32 * MiB);
  EXPECT_GE(p[1].working_set_max, 350 * MiB);
}

TEST(plateaus, three_levels) {
  const auto pts = sweep({{2 * MiB, 30e12}, {40 * MiB, 8e12}, {1e300, 3e12}}, 0.015, 11);
  const auto p = find_plateaus(pts);
  ASSERT_EQ(p.size(), 3u);
  EXPECT_NEAR(p[0].bandwidth / 30e12, 1.0, 0.04);
  EXPECT_NEAR(p[1].bandwidth / 8e12, 1.0, 0.04);
  EXPECT_NEAR(p[2].bandwidth / 3e12, 1.0, 0.04);
  EXPECT_LT(p[0].working_set_max, p[1].working_set_min);
  EXPECT_LT(p[1].working_set_max, p[2].working_set_min);
}

TEST(plateaus, outliers_neither_split_nor_bias_a_plateau) {
  auto pts = sweep({{32 * MiB, 8e12}, {1e300, 3e12}}, 0.01, 3);
  // A preempted launch (3x slower) on each plateau and a fast glitch.
  pts[6].time_s *= 3;
  pts[7].time_s *= 3;
  pts[pts.size() - 8].time_s *= 2.5;
  pts[12].time_s *= 0.6;
  const auto p = find_plateaus(pts);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_NEAR(p[0].bandwidth / 8e12, 1.0, 0.03);
  EXPECT_NEAR(p[1].bandwidth / 3e12, 1.0, 0.03);
}

TEST(plateaus, rising_curve_has_no_plateau) {
  // Rate doubling every octave (too little parallelism): no flat range anywhere.
  std::vector<sweep_point> pts;
  for (double ws = 4096; ws <= 4 * MiB; ws *= 2)
    pts.push_back({ws, ws, ws / (1e9 * ws / 4096)});
  EXPECT_TRUE(find_plateaus(pts).empty());
}

TEST(plateaus, bad_points_are_ignored) {
  auto pts = sweep({{1e300, 2e12}}, 0.0, 5);
  pts.push_back({1 * MiB, 1e6, 0.0});
  pts.push_back({1 * MiB, -1, 1e-3});
  pts.push_back({0, 1e6, 1e-3});
  const auto p = find_plateaus(pts);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_NEAR(p[0].bandwidth / 2e12, 1.0, 1e-9);
  EXPECT_TRUE(find_plateaus({}).empty());
}

TEST(plateaus, level_of_a_plateau) {
  using roofkit::memory_level;
  using roofkit::sweep_plateau_level;
  const double l1 = 132 * 228 * 1024.0, l2 = 50 * MiB; // an H100: 29.4 MB of L1, 50 MiB of L2
  // A cached read: every plateau that fits the L1s is L1, however many there are; beyond them
  // the reads mix L1 and L2 hits and set no roof (this once made a 25.6 TB/s "L2" roof).
  EXPECT_EQ(sweep_plateau_level(true, 4 * MiB, l1, l2), memory_level::l1);
  EXPECT_EQ(sweep_plateau_level(true, 22.6 * MiB, l1, l2), memory_level::l1);
  EXPECT_EQ(sweep_plateau_level(true, 38 * MiB, l1, l2), std::nullopt);
  // Loads that bypass the L1 (and stores): L2 up to the L2 size, then DRAM (no candidate).
  EXPECT_EQ(sweep_plateau_level(false, 0.5 * MiB, l1, l2), memory_level::l2);
  EXPECT_EQ(sweep_plateau_level(false, 38 * MiB, l1, l2), memory_level::l2);
  EXPECT_EQ(sweep_plateau_level(false, 64 * MiB, l1, l2), std::nullopt);
  EXPECT_EQ(sweep_plateau_level(false, 0, l1, l2), std::nullopt);
}

// The roofline model with known numbers: intensity, attainable, bound, % of roof, ridge.
#include <cmath>

#include <gtest/gtest.h>

#include "roofkit/roofline.hpp"

namespace {

using roofkit::ceiling;
using roofkit::ceiling_source;
using roofkit::kernel_result;
using roofkit::memory_level;
using roofkit::precision;

ceiling compute(precision p, double v, ceiling_source s = ceiling_source::theoretical) {
  ceiling c;
  c.prec = p;
  c.value = v;
  c.source = s;
  return c;
}

ceiling memory(memory_level l, double v, ceiling_source s = ceiling_source::theoretical) {
  ceiling c;
  c.is_memory = true;
  c.level = l;
  c.value = v;
  c.source = s;
  return c;
}

/// 60 TFLOP/s FP32, 900 TFLOP/s tensor FP16, 3 TB/s DRAM, 10 TB/s L2, 30 TB/s L1.
std::vector<ceiling> roofs() {
  return {compute(precision::fp32, 60e12), compute(precision::tensor_fp16, 900e12),
          memory(memory_level::dram, 3e12), memory(memory_level::l2, 10e12),
          memory(memory_level::l1, 30e12)};
}

kernel_result roofline_kernel(std::map<precision, double> flops,
                              std::map<memory_level, double> bytes, double time) {
  kernel_result k;
  k.name = "k";
  k.flops = std::move(flops);
  k.bytes = std::move(bytes);
  k.time.median_s = time;
  return k;
}

const roofkit::level_point& at(const roofkit::kernel_placement& p, memory_level l) {
  for (const auto& lp : p.levels)
    if (lp.level == l)
      return lp;
  throw std::runtime_error("level missing");
}

TEST(roofline, dram_bound_kernel_with_known_numbers) {
  // 1e12 FP32 FLOPs and 1e11 DRAM bytes in 0.1 s under 60 TF / 3 TB/s.
  const auto p = roofkit::place_kernel(
      roofline_kernel({{precision::fp32, 1e12}}, {{memory_level::dram, 1e11}}, 0.1),
      {compute(precision::fp32, 60e12), memory(memory_level::dram, 3e12)});
  ASSERT_EQ(p.levels.size(), 1u);
  const auto& d = p.levels[0];
  EXPECT_DOUBLE_EQ(d.intensity, 10.0);
  EXPECT_DOUBLE_EQ(d.attainable_flops, 30e12);
  EXPECT_DOUBLE_EQ(d.ridge_intensity, 20.0);
  EXPECT_DOUBLE_EQ(d.achieved_bandwidth, 1e12);
  EXPECT_NEAR(d.utilisation, 1.0 / 3.0, 1e-12);
  EXPECT_DOUBLE_EQ(p.achieved_flops, 1e13);
  EXPECT_DOUBLE_EQ(p.attainable_flops, 30e12);
  EXPECT_DOUBLE_EQ(p.compute_roof, 60e12);
  EXPECT_EQ(p.bound, "dram");
  EXPECT_EQ(p.bound_label, "DRAM");
  EXPECT_FALSE(p.compute_bound);
  EXPECT_NEAR(p.pct_of_roof, 100.0 / 3.0, 1e-9);
  ASSERT_TRUE(p.ridge_level.has_value());
  EXPECT_EQ(*p.ridge_level, memory_level::dram);
  EXPECT_NEAR(p.ridge_distance, std::log10(0.5), 1e-12);
  EXPECT_EQ(p.dominant_precision, precision::fp32);
  EXPECT_TRUE(p.has_flops);
  EXPECT_FALSE(p.analytical);
  EXPECT_FALSE(p.failed);
}

TEST(roofline, compute_bound_kernel) {
  // Intensity 100 FLOP/B, right of the ridge (20): the FP32 roof binds.
  const auto p = roofkit::place_kernel(
      roofline_kernel({{precision::fp32, 1e12}}, {{memory_level::dram, 1e10}}, 0.05), roofs());
  EXPECT_EQ(p.bound, "fp32");
  EXPECT_TRUE(p.compute_bound);
  EXPECT_DOUBLE_EQ(p.attainable_flops, 60e12);
  EXPECT_DOUBLE_EQ(p.achieved_flops, 2e13);
  EXPECT_NEAR(p.pct_of_roof, 100.0 / 3.0, 1e-9);
  EXPECT_NEAR(p.ridge_distance, std::log10(5.0), 1e-12);
  EXPECT_DOUBLE_EQ(at(p, memory_level::dram).attainable_flops, 60e12);
}

TEST(roofline, hierarchy_picks_the_tightest_level) {
  // At their peaks: FP32 1.2e11/60e12 = 2 ms, DRAM 1e10/3e12 = 3.3 ms, L2 8e10/10e12 = 8 ms,
  // L1 1.2e11/30e12 = 4 ms. The L2 allows the least time: it binds, at 8 / 16 ms = 50%.
  const auto p = roofkit::place_kernel(
      roofline_kernel(
          {{precision::fp32, 1.2e11}},
          {{memory_level::dram, 1e10}, {memory_level::l2, 8e10}, {memory_level::l1, 1.2e11}},
          0.016),
      roofs());
  EXPECT_EQ(p.bound, "l2");
  EXPECT_NEAR(p.pct_of_roof, 50.0, 1e-9);
  EXPECT_DOUBLE_EQ(at(p, memory_level::l2).intensity, 1.5);
  EXPECT_DOUBLE_EQ(at(p, memory_level::l2).attainable_flops, 15e12);
  EXPECT_DOUBLE_EQ(at(p, memory_level::dram).attainable_flops, 36e12);
  EXPECT_DOUBLE_EQ(at(p, memory_level::l1).attainable_flops, 30e12);
  EXPECT_DOUBLE_EQ(p.attainable_flops, 15e12);
  EXPECT_EQ(*p.ridge_level, memory_level::l2);
  // levels are reported in hierarchy order l1, l2, dram
  ASSERT_EQ(p.levels.size(), 3u);
  EXPECT_EQ(p.levels[0].level, memory_level::l1);
  EXPECT_EQ(p.levels[2].level, memory_level::dram);
}

TEST(roofline, copy_is_placed_on_bandwidth_only) {
  // 1e9 bytes through DRAM and L2 in 0.5 ms: DRAM at 2 TB/s (66.7% of 3), L2 at 20%.
  const auto p = roofkit::place_kernel(
      roofline_kernel({}, {{memory_level::dram, 1e9}, {memory_level::l2, 1e9}}, 0.5e-3), roofs());
  EXPECT_FALSE(p.has_flops);
  EXPECT_EQ(p.bound, "dram");
  EXPECT_NEAR(p.pct_of_roof, 200.0 / 3.0, 1e-9);
  EXPECT_DOUBLE_EQ(p.achieved_flops, 0.0);
  EXPECT_DOUBLE_EQ(p.attainable_flops, 0.0);
  EXPECT_DOUBLE_EQ(p.ridge_distance, 0.0);
  EXPECT_FALSE(p.dominant_precision.has_value());
  EXPECT_DOUBLE_EQ(at(p, memory_level::dram).intensity, 0.0);
  EXPECT_DOUBLE_EQ(at(p, memory_level::dram).achieved_bandwidth, 2e12);
  EXPECT_NEAR(at(p, memory_level::l2).utilisation, 0.2, 1e-12);
}

TEST(roofline, copy_bound_by_the_level_with_the_highest_utilisation) {
  // DRAM 0.1 TB/s (3.3%), L2 6 TB/s (60%): the L2 binds.
  const auto p = roofkit::place_kernel(
      roofline_kernel({}, {{memory_level::dram, 1e8}, {memory_level::l2, 6e9}}, 1e-3), roofs());
  EXPECT_EQ(p.bound, "l2");
  EXPECT_NEAR(p.pct_of_roof, 60.0, 1e-9);
}

TEST(roofline, mixed_precision_uses_the_time_weighted_roof) {
  // 9e12 tensor FLOPs (10 ms at 900 TF) + 3e11 FP32 FLOPs (5 ms at 60 TF) = 15 ms of compute.
  const std::map<precision, double> flops{{precision::tensor_fp16, 9e12}, {precision::fp32, 3e11}};
  const auto p =
      roofkit::place_kernel(roofline_kernel(flops, {{memory_level::dram, 1e9}}, 0.04), roofs());
  EXPECT_TRUE(p.mixed_precision);
  EXPECT_DOUBLE_EQ(p.total_flops, 9.3e12);
  EXPECT_NEAR(p.compute_lower_bound_s, 0.015, 1e-15);
  EXPECT_NEAR(p.compute_roof, 9.3e12 / 0.015, 1e3);
  EXPECT_NEAR(roofkit::combined_compute_roof(flops, roofs()), 6.2e14, 1e3);
  EXPECT_EQ(p.bound, "tensor_fp16");
  EXPECT_EQ(p.dominant_precision, precision::tensor_fp16);
  EXPECT_TRUE(p.compute_bound);
  EXPECT_NE(p.bound_label.find("combined"), std::string::npos);
  EXPECT_NEAR(p.pct_of_roof, 37.5, 1e-9);
  // The combined roof sits between the two pure roofs.
  EXPECT_GT(p.compute_roof, 60e12);
  EXPECT_LT(p.compute_roof, 900e12);
}

TEST(roofline, dominant_precision_is_the_one_taking_the_most_time) {
  // More tensor FLOPs, but the FP32 ones take longer at their peak.
  const auto p = roofkit::place_kernel(
      roofline_kernel({{precision::tensor_fp16, 9e11}, {precision::fp32, 3e11}}, {}, 0.01),
      roofs());
  EXPECT_EQ(p.dominant_precision, precision::fp32);
  EXPECT_EQ(p.bound, "fp32");
}

TEST(roofline, analytical_mode_places_the_same_way) {
  auto k = roofkit::analytical_kernel("declared", {{precision::fp32, 1e12}},
                                      {{memory_level::dram, 1e11}}, 0.1);
  EXPECT_EQ(k.source, roofkit::work_source::analytical);
  EXPECT_DOUBLE_EQ(*k.algorithmic_flops, 1e12);
  EXPECT_DOUBLE_EQ(*k.minimal_bytes, 1e11);
  const auto p = roofkit::place_kernel(k, roofs());
  EXPECT_TRUE(p.analytical);
  EXPECT_EQ(p.bound, "dram");
  EXPECT_NEAR(p.pct_of_roof, 100.0 / 3.0, 1e-9);
  EXPECT_DOUBLE_EQ(p.levels[0].intensity, 10.0);
}

TEST(roofline, measured_ceiling_wins_over_theoretical) {
  const std::vector<ceiling> cs{memory(memory_level::dram, 3e12),
                                memory(memory_level::dram, 2.5e12, ceiling_source::measured),
                                compute(precision::fp32, 60e12)};
  EXPECT_DOUBLE_EQ(roofkit::find_memory_ceiling(cs, memory_level::dram)->value, 2.5e12);
  const auto p = roofkit::place_kernel(roofline_kernel({}, {{memory_level::dram, 2e9}}, 1e-3), cs);
  EXPECT_NEAR(p.pct_of_roof, 80.0, 1e-9);
  EXPECT_EQ(roofkit::find_compute_ceiling(cs, precision::fp64), nullptr);
}

TEST(roofline, missing_compute_ceiling_falls_back_to_memory_roofs) {
  const auto p = roofkit::place_kernel(
      roofline_kernel({{precision::fp64, 1e11}}, {{memory_level::dram, 1e10}}, 0.01), roofs());
  EXPECT_DOUBLE_EQ(p.compute_roof, 0.0);
  EXPECT_EQ(p.bound, "dram");
  EXPECT_NEAR(p.pct_of_roof, 100.0 / 3.0, 1e-9);
  EXPECT_EQ(p.dominant_precision, precision::fp64);
  ASSERT_FALSE(p.notes.empty());
  EXPECT_NE(p.notes[0].find("FP64"), std::string::npos);
  EXPECT_DOUBLE_EQ(roofkit::combined_compute_roof({{precision::fp64, 1.0}}, roofs()), 0.0);
}

TEST(roofline, unplaceable_kernels_say_why) {
  const auto untimed = roofkit::place_kernel(
      roofline_kernel({{precision::fp32, 1e9}}, {{memory_level::dram, 1e9}}, 0), roofs());
  EXPECT_EQ(untimed.bound, "unknown");
  EXPECT_DOUBLE_EQ(untimed.pct_of_roof, 0.0);
  EXPECT_FALSE(untimed.notes.empty());

  const auto no_roofs = roofkit::place_kernel(
      roofline_kernel({{precision::fp32, 1e9}}, {{memory_level::dram, 1e9}}, 1), {});
  EXPECT_EQ(no_roofs.bound, "unknown");
  EXPECT_DOUBLE_EQ(no_roofs.achieved_flops, 1e9);
  EXPECT_DOUBLE_EQ(no_roofs.levels.at(0).intensity, 1.0);
}

TEST(roofline, failed_kernels_are_flagged_and_analyze_keeps_order) {
  roofkit::run r;
  r.ceilings = roofs();
  r.kernels.push_back(roofline_kernel({}, {{memory_level::dram, 1e9}}, 1e-3));
  r.kernels.back().name = "first";
  r.kernels.push_back(roofline_kernel({{precision::fp32, 1e9}}, {{memory_level::dram, 1e9}}, 1e-3));
  r.kernels.back().name = "second";
  r.kernels.back().status = "failed";
  const auto placed = roofkit::analyze(r);
  ASSERT_EQ(placed.size(), 2u);
  EXPECT_EQ(placed[0].name, "first");
  EXPECT_FALSE(placed[0].failed);
  EXPECT_EQ(placed[1].name, "second");
  EXPECT_TRUE(placed[1].failed);
}

} // namespace

namespace {

// Every SM-clocked roof follows the kernel's own SM clock; DRAM does not.
TEST(roofline, roofs_are_taken_at_the_kernels_own_clock) {
  auto ceilings = roofs();
  for (auto& c : ceilings)
    c.sm_clock_mhz = 2000;
  const auto scaled = roofkit::ceilings_at_clock(ceilings, 1500);
  ASSERT_EQ(scaled.size(), ceilings.size());
  EXPECT_DOUBLE_EQ(scaled[0].value, 45e12); // FP32 60 TF at 2000 MHz -> 45 TF at 1500
  EXPECT_DOUBLE_EQ(scaled[0].sm_clock_mhz, 1500);
  EXPECT_DOUBLE_EQ(scaled[2].value, 3e12) << "DRAM does not follow the SM clock";
  EXPECT_DOUBLE_EQ(scaled[3].value, 7.5e12);
  EXPECT_DOUBLE_EQ(scaled[4].value, 22.5e12);
  EXPECT_EQ(roofkit::ceilings_at_clock(ceilings, 0)[0].value, 60e12) << "no clock: unchanged";

  // 45 TFLOP of FP32 in 1 s at 1500 MHz is 100% of the roof at that clock, 75% at 2000 MHz.
  auto k = roofline_kernel({{precision::fp32, 45e12}}, {{memory_level::dram, 1e9}}, 1.0);
  EXPECT_NEAR(roofkit::place_kernel(k, ceilings).pct_of_roof, 75.0, 1e-9);
  k.sm_clock_mhz = 1500;
  const auto p = roofkit::place_kernel(k, ceilings);
  EXPECT_NEAR(p.pct_of_roof, 100.0, 1e-9);
  EXPECT_DOUBLE_EQ(p.compute_roof, 45e12);
  EXPECT_DOUBLE_EQ(p.roof_sm_clock_mhz, 1500);
  // A roof without a clock is used as it is.
  auto plain = roofs();
  EXPECT_NEAR(roofkit::place_kernel(k, plain).pct_of_roof, 75.0, 1e-9);
}

} // namespace

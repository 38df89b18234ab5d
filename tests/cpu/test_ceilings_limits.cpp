// What no measurement may show: a clock above the GPU's maximum or a rate above theory at that
// clock (reject_above_hardware), and event times that disagree with the in-kernel timer or the
// host's clock. Cases from the H100's FP64 tensor figures (theory 66.9 TFLOP/s at 1980 MHz).
#include <gtest/gtest.h>

#include "ceilings/measure_context.hpp"
#include "roofkit/ceilings.hpp"

using namespace roofkit;

namespace {

constexpr double h100_max_mhz = 1980;

ceiling_measurement fp64_tensor(double value, double mhz) {
  ceiling_measurement m;
  m.name = "mma.sync FP64 m16n8k16 x4";
  m.unit = "FLOP/s";
  m.value = m.best = value;
  m.prec = precision::tensor_fp64;
  m.sm_clock_mhz = mhz;
  m.theoretical = 66.90816e12;
  m.theoretical_clock_mhz = 1980;
  return m;
}

} // namespace

TEST(reject_above_hardware, the_recorded_h100_fp64_tensor_roof_is_a_measurement_error) {
  std::vector<ceiling_measurement> ms = {fp64_tensor(70.4965e12, 2093.0),
                                         fp64_tensor(68.018e12, 2024.97)};
  EXPECT_EQ(reject_above_hardware(ms, h100_max_mhz), 2u);
  for (const auto& m : ms) {
    EXPECT_NE(m.check.find("measurement error"), std::string::npos) << m.check;
    EXPECT_NE(m.check.find("1980 MHz"), std::string::npos) << m.check;
  }
  // Never clamped: the figures stay as measured, and none becomes a roof.
  EXPECT_DOUBLE_EQ(ms[0].value, 70.4965e12);
  EXPECT_DOUBLE_EQ(ms[0].sm_clock_mhz, 2093.0);
  EXPECT_TRUE(best_ceilings(ms, 2619).empty());
}

TEST(reject_above_hardware, a_rate_above_theory_at_the_maximum_clock_is_rejected_at_any_clock) {
  std::vector<ceiling_measurement> ms = {fp64_tensor(68.2e12, 1975)};
  EXPECT_EQ(reject_above_hardware(ms, h100_max_mhz), 1u);
  EXPECT_NE(ms[0].check.find("above the theoretical"), std::string::npos) << ms[0].check;
  // The sustained figure is held to the same limits.
  ms = {fp64_tensor(66.0e12, 1979)};
  ms[0].sustained_value = 69e12;
  ms[0].sustained_sm_clock_mhz = 1979;
  EXPECT_EQ(reject_above_hardware(ms, h100_max_mhz), 1u);
  ms = {fp64_tensor(66.0e12, 1979)};
  ms[0].sustained_value = 65e12;
  ms[0].sustained_sm_clock_mhz = 2050;
  EXPECT_EQ(reject_above_hardware(ms, h100_max_mhz), 1u);
  EXPECT_NE(ms[0].check.find("sustained SM clock 2050 MHz"), std::string::npos) << ms[0].check;
}

TEST(reject_above_hardware, figures_within_the_hardware_pass) {
  std::vector<ceiling_measurement> ms = {fp64_tensor(66.7e12, 1979.96)};
  // A tensor roof quoted at the datasheet's 1830 MHz tensor clock may be passed at a higher
  // clock (theory at 1980 MHz: 1070 TFLOP/s).
  ceiling_measurement fp16;
  fp16.name = "wgmma FP16";
  fp16.unit = "FLOP/s";
  fp16.value = 999.67e12;
  fp16.prec = precision::tensor_fp16;
  fp16.sm_clock_mhz = 1860;
  fp16.theoretical = 989.43e12;
  fp16.theoretical_clock_mhz = 1830;
  ms.push_back(fp16);
  // A reference's clock is probed apart: only its rate is held to theory.
  ceiling_measurement gemm = fp64_tensor(65.7e12, 2100);
  gemm.name = "cuBLAS DGEMM";
  gemm.reference = true;
  ms.push_back(gemm);
  EXPECT_EQ(reject_above_hardware(ms, h100_max_mhz), 0u);
  for (const auto& m : ms)
    EXPECT_EQ(m.check, "ok") << m.name;
  EXPECT_EQ(best_ceilings(ms, 2619).size(), 2u);
}

TEST(reject_above_hardware, dram_is_held_to_its_own_theory) {
  ceiling_measurement m;
  m.name = "DRAM read stream";
  m.unit = "B/s";
  m.value = 3.40e12;
  m.level = memory_level::dram;
  m.sm_clock_mhz = 1979;
  m.theoretical = 3.3523e12;
  m.theoretical_clock_mhz = 1980;
  std::vector<ceiling_measurement> ms = {m};
  EXPECT_EQ(reject_above_hardware(ms, 3000), 1u) << "a higher SM clock does not raise DRAM";
  ms[0].check = "ok";
  ms[0].value = 3.22e12;
  EXPECT_EQ(reject_above_hardware(ms, h100_max_mhz), 0u);
}

TEST(failed_checks, lists_every_failure_with_its_reason) {
  ceilings_result r;
  r.measurements = {fp64_tensor(70.5e12, 2093), fp64_tensor(66e12, 1979), fp64_tensor(60e12, 1979)};
  r.measurements[2].name = "FP64 FMA 16 chains";
  r.measurements[2].check = "3 of 270336 threads did not end at 16";
  EXPECT_EQ(failed_checks(r).size(), 1u);
  reject_above_hardware(r.measurements, h100_max_mhz);
  const auto failures = failed_checks(r);
  ASSERT_EQ(failures.size(), 2u);
  EXPECT_EQ(failures[0].rfind("mma.sync FP64 m16n8k16 x4: measurement error", 0), 0u)
      << failures[0];
  EXPECT_EQ(failures[1], "FP64 FMA 16 chains: 3 of 270336 threads did not end at 16");
  r.measurements.erase(r.measurements.begin());
  r.measurements.pop_back();
  EXPECT_TRUE(failed_checks(r).empty());
}

TEST(time_source_checks, events_shorter_than_the_host_clock_are_an_error) {
  using roofkit::ceilings_detail::host_clock_check;
  // 17 launches of 3 ms: 5.5% short, as the H100's FP64 tensor figure was.
  EXPECT_NE(host_clock_check(0.0510, 0.0540, 17), "");
  EXPECT_NE(host_clock_check(0.0510, 0.0540, 17).find("5.6% short"), std::string::npos)
      << host_clock_check(0.0510, 0.0540, 17);
  // 2.3% short (the fresh run's 2025 MHz) is caught too.
  EXPECT_NE(host_clock_check(0.0500, 0.0512, 17), "");
  // A submission and a wake-up on the host side are not an error.
  EXPECT_EQ(host_clock_check(0.0500, 0.0502, 17), "");
  EXPECT_EQ(host_clock_check(0.0500, 0.0499, 17), "");
  EXPECT_EQ(host_clock_check(0, 0.05, 1), "");
}

TEST(time_source_checks, block_zero_cannot_outlast_its_launch) {
  using roofkit::ceilings_detail::event_span_check;
  EXPECT_NE(event_span_check(3.0e-3, 3.2e-3), "");
  EXPECT_EQ(event_span_check(3.0e-3, 2.99e-3), "");
  EXPECT_EQ(event_span_check(3.0e-3, 3.02e-3), "") << "1% and 2 us of reading granularity";
  EXPECT_EQ(event_span_check(0, 1e-3), "");
}

TEST(time_source_checks, median_span_of_the_timed_launches) {
  using roofkit::ceiling_kernels::clock_sample;
  clock_sample c;
  for (int i = 0; i < 5; ++i) {
    c.time0[i] = 1'000'000ull * (i + 1);
    c.time1[i] = c.time0[i] + (i == 0 ? 9'000'000ull : 3'000'000ull); // a slow warm-up first
    c.clock1[i] = c.clock0[i] + 1;
  }
  c.launches = 5;
  EXPECT_DOUBLE_EQ(roofkit::ceilings_detail::median_span_s(c, 4), 3e-3);
  EXPECT_DOUBLE_EQ(roofkit::ceilings_detail::median_span_s(c, 0), 0);
}

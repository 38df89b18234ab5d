// On the GPU: no measured figure above the hardware (no SM clock above the GPU's maximum, no
// rate above theory at that maximum clock), the quick set under 30 s, and a second run that
// takes its roofs from the cache.
#include <chrono>
#include <filesystem>
#include <unistd.h>

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include "roofkit/ceilings.hpp"
#include "roofkit/device.hpp"

using namespace roofkit;

namespace {

double max_sm_clock_mhz() {
  int khz = 0;
  EXPECT_EQ(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0), cudaSuccess);
  return khz / 1000.0;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

} // namespace

// Fails when any figure of the quick set exceeds theory at the maximum clock or its clock
// exceeds the maximum, whether or not the measurement rejected it itself.
TEST(ceilings_limits_gpu, no_figure_above_the_hardware) {
  ceilings_options o;
  o.quick = true;
  const auto r = measure_ceilings(o, theoretical_ceilings(query_device(0)));
  const double max_mhz = max_sm_clock_mhz();
  ASSERT_GT(max_mhz, 100);
  EXPECT_DOUBLE_EQ(r.gpu.sm_clock_mhz, max_mhz);
  ASSERT_FALSE(r.measurements.empty());
  int compute = 0;
  for (const auto& m : r.measurements) {
    if (!m.reference) {
      EXPECT_LE(m.sm_clock_mhz, 1.01 * max_mhz) << m.name << ": clock above the maximum";
      EXPECT_LE(m.sustained_sm_clock_mhz, 1.01 * max_mhz) << m.name;
    }
    if (m.theoretical > 0) {
      const bool dram = m.level && *m.level == memory_level::dram;
      const double limit = dram || !(m.theoretical_clock_mhz > 0)
                               ? m.theoretical
                               : m.theoretical * max_mhz / m.theoretical_clock_mhz;
      EXPECT_LE(m.value, 1.01 * limit) << m.name << ": above theory at the maximum clock";
    }
    EXPECT_EQ(m.check, "ok") << m.name;
    compute += m.prec && !m.reference ? 1 : 0;
  }
  EXPECT_GE(compute, 8) << "FP64, FP32, FP16, BF16 FMA and the tensor precisions";
  for (const auto& c : r.ceilings)
    EXPECT_LE(c.sm_clock_mhz, 1.01 * max_mhz) << c.method;
}

TEST(ceilings_cache_gpu, quick_set_under_30_s_then_a_cache_hit) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("roofkit-cache-gpu-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  roofs_request rq;
  rq.cache_dir = dir;
  std::vector<std::string> warnings;
  rq.warn = [&](const std::string& s) { warnings.push_back(s); };
  const auto theory = theoretical_ceilings(query_device(0));
  auto start = std::chrono::steady_clock::now();
  const chosen_roofs first = choose_roofs(rq, theory);
  const double first_s = seconds_since(start);
  EXPECT_EQ(first.origin, "measured");
  EXPECT_LT(first_s, 30.0) << "the quick set took " << first_s << " s";
  ASSERT_TRUE(first.result.has_value());
  EXPECT_LT(first.result->elapsed_s, 30.0);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  bool dram = false, l2 = false, l1 = false, fp32 = false, fp64 = false;
  for (const auto& c : first.measured) {
    dram = dram || (c.is_memory && c.level == memory_level::dram);
    l2 = l2 || (c.is_memory && c.level == memory_level::l2);
    l1 = l1 || (c.is_memory && c.level == memory_level::l1);
    fp32 = fp32 || (!c.is_memory && c.prec == precision::fp32);
    fp64 = fp64 || (!c.is_memory && c.prec == precision::fp64);
  }
  EXPECT_TRUE(dram && l2 && l1 && fp32 && fp64);

  start = std::chrono::steady_clock::now();
  const chosen_roofs second = choose_roofs(rq, theory);
  EXPECT_LT(seconds_since(start), 2.0);
  EXPECT_EQ(second.origin, "cache");
  EXPECT_FALSE(second.result.has_value());
  EXPECT_EQ(second.date, first.date);
  EXPECT_EQ(second.measured.size(), first.measured.size());
  std::filesystem::remove_all(dir);
}

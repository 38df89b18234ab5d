// measure_ceilings on the GPU (--quick, no references): every check passes, every roof has its
// clock, and the roofs sit where the hardware allows (not above the theoretical peak at the
// clock observed, not absurdly below it).
#include <gtest/gtest.h>

#include "roofkit/ceilings.hpp"
#include "roofkit/device.hpp"

using namespace roofkit;

namespace {

const ceilings_result& quick_result() {
  static const ceilings_result r = [] {
    ceilings_options o;
    o.quick = true;
    o.references = false;
    return measure_ceilings(o, theoretical_ceilings(query_device(0)));
  }();
  return r;
}

} // namespace

TEST(ceilings_gpu, every_result_check_passes) {
  // No measurement at all must not pass: the quick run measures at least the CUDA-core FMA
  // rates, DRAM and L2, and each of them must pass its check.
  const auto& ms = quick_result().measurements;
  ASSERT_FALSE(ms.empty()) << "the quick ceilings measured nothing";
  bool fp32 = false, fp64 = false, dram = false, l2 = false;
  for (const auto& m : ms) {
    EXPECT_EQ(m.check, "ok") << m.name;
    if (m.check != "ok")
      continue;
    fp32 = fp32 || m.prec == precision::fp32;
    fp64 = fp64 || m.prec == precision::fp64;
    dram = dram || m.level == memory_level::dram;
    l2 = l2 || m.level == memory_level::l2;
  }
  EXPECT_TRUE(fp32) << "no passing FP32 FMA measurement";
  EXPECT_TRUE(fp64) << "no passing FP64 FMA measurement";
  EXPECT_TRUE(dram) << "no passing DRAM measurement";
  EXPECT_TRUE(l2) << "no passing L2 measurement";
}

TEST(ceilings_gpu, roofs_carry_their_clock_and_stay_under_the_peak_at_that_clock) {
  const auto& r = quick_result();
  ASSERT_FALSE(r.ceilings.empty());
  for (const auto& m : r.measurements) {
    if (m.check != "ok" || m.reference)
      continue;
    EXPECT_GT(m.sm_clock_mhz, 100) << m.name;
    EXPECT_LT(m.sm_clock_mhz, 4000) << m.name;
    if (m.theoretical > 0 && m.theoretical_clock_mhz > 0 && !(m.level == memory_level::dram)) {
      EXPECT_LE(m.value, 1.02 * m.theoretical * m.sm_clock_mhz / m.theoretical_clock_mhz)
          << m.name << " exceeds the theoretical peak at its own clock";
    }
  }
}

TEST(ceilings_gpu, fma_and_dram_near_their_peaks) {
  const auto& r = quick_result();
  for (const auto& c : r.ceilings) {
    // FP16x2 and BF16x2 included: at half their peak, the loop lost HFMA2.MMA (a broadcast
    // operand).
    const bool fma = !c.is_memory && (c.prec == precision::fp32 || c.prec == precision::fp64 ||
                                      c.prec == precision::fp16 || c.prec == precision::bf16);
    const bool dram = c.is_memory && c.level == memory_level::dram;
    if (!fma && !dram)
      continue;
    for (const auto& m : r.measurements)
      if (m.theoretical > 0 && ((fma && m.prec == c.prec) || (dram && m.level == c.level))) {
        const double scale = fma && m.theoretical_clock_mhz > 0 && c.sm_clock_mhz > 0
                                 ? c.sm_clock_mhz / m.theoretical_clock_mhz
                                 : 1.0;
        EXPECT_GT(c.value, 0.8 * m.theoretical * scale) << c.method;
        break;
      }
  }
}

TEST(ceilings_gpu, sweeps_find_an_l2_plateau) {
  // The L2 roof is a plateau of its own: well above DRAM (an H100's L2 read plateau is about
  // 3x its DRAM rate) and not above the L2 roof of the theoretical table at its clock.
  const auto& r = quick_result();
  const ceiling* l2 = nullptr;
  const ceiling* dram = nullptr;
  for (const auto& c : r.ceilings) {
    if (c.is_memory && c.level == memory_level::l2)
      l2 = &c;
    if (c.is_memory && c.level == memory_level::dram)
      dram = &c;
  }
  ASSERT_NE(l2, nullptr) << "no L2 roof";
  ASSERT_NE(dram, nullptr) << "no DRAM roof";
  EXPECT_GT(l2->value, 1.5 * dram->value)
      << "the L2 plateau (" << l2->value / 1e12 << " TB/s) is not above DRAM ("
      << dram->value / 1e12 << " TB/s): the sweep found DRAM, not L2";
  const auto theory = theoretical_ceilings(query_device(0));
  for (const auto& t : theory) {
    if (t.is_memory && t.level == memory_level::l2 && t.sm_clock_mhz > 0 && l2->sm_clock_mhz > 0) {
      EXPECT_LE(l2->value, 1.02 * t.value * l2->sm_clock_mhz / t.sm_clock_mhz)
          << "the L2 roof is above the theoretical L2 bandwidth at its clock";
    }
  }
}

// The clock of a ceiling measurement: the median over the timed launches only, read from the
// ring of per-launch samples that the ceiling kernels fill (lib/src/ceilings/measure_context.hpp).
#include <gtest/gtest.h>

#include "ceilings/measure_context.hpp"

namespace {

using roofkit::ceiling_kernels::clock_sample;
using roofkit::ceilings_detail::median_clock_mhz;

// Records one launch of 1 ms at `mhz` in the slot the kernel would use.
void record(clock_sample& c, double mhz) {
  const auto i = c.launches % clock_sample::slots;
  c.time0[i] = 1'000'000'000ull * (c.launches + 1);
  c.time1[i] = c.time0[i] + 1'000'000;
  c.clock0[i] = 5'000'000'000ull;
  c.clock1[i] = c.clock0[i] + static_cast<unsigned long long>(mhz * 1000);
  ++c.launches;
}

TEST(ceilings_clock_sample, leaves_out_the_warm_up_launch) {
  clock_sample c;
  record(c, 1500); // warm-up at a lower clock
  for (double mhz : {1760.0, 1770.0, 1780.0, 1790.0})
    record(c, mhz);
  EXPECT_DOUBLE_EQ(median_clock_mhz(c, 4), 1775.0);
  EXPECT_DOUBLE_EQ(median_clock_mhz(c, 5), 1770.0); // with it, the median drops a rank
}

TEST(ceilings_clock_sample, reads_the_last_launches_of_a_wrapped_ring) {
  clock_sample c;
  for (int k = 0; k < 40; ++k)
    record(c, k < 35 ? 1000.0 : 2000.0);
  EXPECT_DOUBLE_EQ(median_clock_mhz(c, 5), 2000.0);
  EXPECT_DOUBLE_EQ(median_clock_mhz(c, 100), 1000.0); // capped at the 32 slots kept
}

TEST(ceilings_clock_sample, skips_unusable_samples_and_returns_zero_without_any) {
  clock_sample c;
  EXPECT_EQ(median_clock_mhz(c, 10), 0.0);
  record(c, 1980);
  const auto i = c.launches % clock_sample::slots;
  ++c.launches; // a launch whose sample was never written (all zero)
  c.time0[i] = c.time1[i] = c.clock0[i] = c.clock1[i] = 0;
  EXPECT_DOUBLE_EQ(median_clock_mhz(c, 2), 1980.0);
}

} // namespace

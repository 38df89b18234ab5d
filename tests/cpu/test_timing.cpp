// The timing harness's statistics and argument checks (no GPU needed).
#include <dlfcn.h>

#include <gtest/gtest.h>

#include "roofkit/core.hpp"
#include "roofkit/timing.hpp"

namespace {

TEST(timing, median_min_max_of_odd_and_even_counts) {
  auto t = roofkit::summarize_samples({3e-3, 1e-3, 2e-3});
  EXPECT_DOUBLE_EQ(t.median_s, 2e-3);
  EXPECT_DOUBLE_EQ(t.min_s, 1e-3);
  EXPECT_DOUBLE_EQ(t.max_s, 3e-3);
  EXPECT_EQ(t.repetitions, 3);
  t = roofkit::summarize_samples({4.0, 1.0, 3.0, 2.0});
  EXPECT_DOUBLE_EQ(t.median_s, 2.5);
  EXPECT_EQ(t.repetitions, 4);
  // An outlier moves max, not the median.
  t = roofkit::summarize_samples({1.0, 1.0, 1.0, 1.0, 90.0});
  EXPECT_DOUBLE_EQ(t.median_s, 1.0);
  EXPECT_DOUBLE_EQ(t.max_s, 90.0);
  t = roofkit::summarize_samples({});
  EXPECT_EQ(t.repetitions, 0);
  EXPECT_DOUBLE_EQ(t.median_s, 0.0);
}

TEST(timing, bad_counts_are_usage_errors) {
  roofkit::timing_options o;
  o.repetitions = 0;
  try {
    roofkit::time_kernel([](cudaStream_t) {}, o);
    FAIL();
  } catch (const roofkit::error& e) {
    EXPECT_EQ(e.code(), roofkit::exit_code::usage);
    EXPECT_NE(std::string(e.what()).find("repetitions 0"), std::string::npos);
  }
  o.repetitions = 5;
  o.warmup = -1;
  EXPECT_THROW(roofkit::time_kernel([](cudaStream_t) {}, o), roofkit::error);
}

} // namespace

// Clock control "base" without NVML (CI, laptops): refused with a reason, never thrown. Where
// NVML loads the test is skipped: it would lock a real GPU's clocks.
TEST(timing, clock_lock_without_nvml_says_why) {
  if (void* nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL)) {
    dlclose(nvml);
    GTEST_SKIP() << "NVML is present: locking would change this GPU's clocks";
  }
  roofkit::clock_lock lock(0);
  EXPECT_FALSE(lock.locked());
  EXPECT_EQ(lock.mhz(), 0);
  EXPECT_NE(lock.message().find("NVML"), std::string::npos) << lock.message();
}

// A run's clock control: none locks nothing and says so; a bad mode's name is a usage error
// naming it, from the one mode table; base without NVML is refused with the reason and the fix,
// holding no lock (skipped where NVML loads, as above).
TEST(timing, clock_control_none_locks_nothing_and_bad_modes_are_named) {
  const auto none = roofkit::apply_clock_control(roofkit::clock_control::none, {0, 1});
  EXPECT_TRUE(none.locks.empty());
  EXPECT_NE(none.note.find("not locked"), std::string::npos) << none.note;
  try {
    roofkit::parse_clock_control("boost");
    FAIL() << "no error for clock control 'boost'";
  } catch (const roofkit::error& e) {
    EXPECT_EQ(e.code(), roofkit::exit_code::usage);
    EXPECT_STREQ(e.what(), "clock control 'boost' is not valid (valid: base, none)");
  }
}

TEST(timing, clock_control_base_refused_without_nvml_is_a_no_device_error) {
  if (void* nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL)) {
    dlclose(nvml);
    GTEST_SKIP() << "NVML is present: locking would change this GPU's clocks";
  }
  try {
    roofkit::apply_clock_control(roofkit::clock_control::base, {0});
    FAIL() << "clock control 'base' did not fail without NVML";
  } catch (const roofkit::error& e) {
    EXPECT_EQ(e.code(), roofkit::exit_code::no_device);
    EXPECT_NE(std::string(e.what()).find("NVML"), std::string::npos) << e.what();
    EXPECT_NE(e.hint().find("'none'"), std::string::npos) << e.hint();
  }
}

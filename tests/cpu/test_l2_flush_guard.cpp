// The guard around the kernel driver's L2 flush (lib/src/profiler/l2_flush_guard): the version
// gate, the environment override, and the fall back to the sweep at open and mid-run, with a
// driver flush and a sweep faked so that no GPU is needed.
#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "profiler/l2_flush_guard.hpp"

namespace {

using roofkit::detail::driver_flush_refusal;
using roofkit::detail::driver_version_from_text;
using roofkit::detail::flushed_by;
using roofkit::detail::l2_flush_guard;

TEST(driver_flush_version, read_from_the_proc_text_of_both_module_kinds) {
  EXPECT_EQ(driver_version_from_text("NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  "
                                     "Thu Oct  9 20:05:40 UTC 2025\nGCC version:  gcc 12\n"),
            "580.159.04");
  EXPECT_EQ(driver_version_from_text("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  "
                                     "570.86.15  Release Build  (dvs-builder@U16)\n"),
            "570.86.15");
  EXPECT_EQ(driver_version_from_text(""), "");
  EXPECT_EQ(driver_version_from_text("GCC version: gcc 12.2.0\n"), "");
  EXPECT_EQ(driver_version_from_text("NVRM version: NVIDIA UNIX x86_64 Kernel Module\n"), "");
}

TEST(driver_flush_version, the_verified_table_holds_the_version_with_evidence) {
  const auto list = roofkit::detail::verified_driver_versions();
  ASSERT_FALSE(list.empty());
  EXPECT_NE(std::find(list.begin(), list.end(), "580.159.04"), list.end());
}

TEST(driver_flush_version, gate_allows_verified_versions_only) {
  EXPECT_EQ(driver_flush_refusal(nullptr, "580.159.04", ""), "");
  EXPECT_EQ(driver_flush_refusal("on", "580.159.04", ""), "");
  EXPECT_EQ(driver_flush_refusal("", "580.159.04", ""), "");
  const std::string other = driver_flush_refusal(nullptr, "580.159.05", "");
  EXPECT_NE(other.find("driver 580.159.05 is not among the versions"), std::string::npos) << other;
  EXPECT_NE(other.find("580.159.04"), std::string::npos) << other;
  EXPECT_NE(driver_flush_refusal(nullptr, "560.35.03", ""), "");
  EXPECT_NE(driver_flush_refusal(nullptr, "580.159", ""), ""); // a prefix is not the version
}

TEST(driver_flush_version, gate_refuses_an_unreadable_version) {
  const std::string r =
      driver_flush_refusal(nullptr, "", "cannot read /proc/driver/nvidia/version");
  EXPECT_EQ(r, "the kernel driver's version is unknown (cannot read /proc/driver/nvidia/version)");
}

TEST(driver_flush_version, environment_override_forces_the_sweep) {
  EXPECT_EQ(driver_flush_refusal("off", "580.159.04", ""), "ROOFKIT_DRIVER_FLUSH=off");
  EXPECT_EQ(driver_flush_refusal("nope", "580.159.04", ""),
            "ROOFKIT_DRIVER_FLUSH='nope' is not valid (valid: on, off)");
}

// A driver flush that fails from its `fail_at`-th call on (1-based; 0: never), and a sweep that
// counts how often it is made and run.
struct fakes {
  int fail_at = 0;
  int driver_calls = 0;
  int sweeps_made = 0;
  int sweeps_run = 0;
  std::vector<std::string> warnings;

  l2_flush_guard guard(bool with_driver, const std::string& why_not = "") {
    std::function<void()> driver;
    if (with_driver)
      driver = [this] {
        if (++driver_calls == fail_at)
          throw std::runtime_error("FB_FLUSH_GPU_CACHE failed: RM status 0x1f");
      };
    return l2_flush_guard(
        driver, why_not,
        [this] {
          ++sweeps_made;
          return std::function<void()>([this] { ++sweeps_run; });
        },
        [this](const std::string& w) { warnings.push_back(w); });
  }
};

TEST(l2_flush_guard, uses_the_driver_while_it_works) {
  fakes f;
  auto g = f.guard(true);
  g.prepare(); // no sweep buffer while the driver's flush is used
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(g.flush(), flushed_by::driver);
  EXPECT_EQ(f.driver_calls, 5);
  EXPECT_EQ(f.sweeps_made, 0);
  EXPECT_EQ(g.method(), "driver");
  EXPECT_EQ(g.fallback_reason(), "");
  EXPECT_TRUE(f.warnings.empty());
}

TEST(l2_flush_guard, falls_back_to_the_sweep_when_the_driver_fails_mid_run) {
  fakes f;
  f.fail_at = 3;
  auto g = f.guard(true);
  EXPECT_EQ(g.flush(), flushed_by::driver);
  EXPECT_EQ(g.flush(), flushed_by::driver);
  EXPECT_EQ(g.flush(), flushed_by::fell_back); // the 3rd fails: the sweep runs in its place
  EXPECT_EQ(f.sweeps_run, 1);
  EXPECT_EQ(g.flush(), flushed_by::sweep);
  EXPECT_EQ(g.flush(), flushed_by::sweep);
  EXPECT_EQ(f.driver_calls, 3); // never tried again
  EXPECT_EQ(f.sweeps_made, 1);
  EXPECT_EQ(f.sweeps_run, 3);
  EXPECT_EQ(g.method(), "sweep");
  EXPECT_EQ(g.fallback_reason(),
            "the driver's flush failed mid-run: FB_FLUSH_GPU_CACHE failed: RM status 0x1f");
  ASSERT_EQ(f.warnings.size(), 1u); // one line, however many flushes follow
  EXPECT_NE(f.warnings[0].find("RM status 0x1f"), std::string::npos) << f.warnings[0];
}

TEST(l2_flush_guard, sweeps_from_the_start_without_the_driver_and_says_why_once) {
  fakes f;
  auto g = f.guard(false, "driver 560.35.03 is not among the versions");
  EXPECT_EQ(f.warnings.size(), 1u);
  g.prepare(); // the sweep's buffer is made before any pass
  EXPECT_EQ(f.sweeps_made, 1);
  EXPECT_EQ(g.flush(), flushed_by::sweep);
  EXPECT_EQ(g.flush(), flushed_by::sweep);
  EXPECT_EQ(f.sweeps_made, 1);
  EXPECT_EQ(f.sweeps_run, 2);
  EXPECT_EQ(g.method(), "sweep");
  EXPECT_EQ(g.fallback_reason(), "driver 560.35.03 is not among the versions");
  EXPECT_EQ(f.warnings.size(), 1u);
}

} // namespace

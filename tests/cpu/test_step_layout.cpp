// The layout of a replay pass's counter ranges over measured launches, launches that are only
// re-issued, and memsets (lib/src/profiler/step_layout.cpp), and the counter image sizes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "profiler/step_layout.hpp"
#include "roofkit/core.hpp"

namespace {

using roofkit::detail::image_ranges;
using roofkit::detail::lay_out_steps;
using roofkit::detail::lay_out_user_range_steps;
using roofkit::detail::reads_instances;
using roofkit::detail::step_range_name;
using roofkit::detail::step_ranges_by_name;
using step = roofkit::profiler_session::sequence_step;

const step measured_launch{{}, true, true};
const step riding_launch{{}, false, true};
const step a_memset{{}, false, false};

TEST(step_layout, the_drivers_flush_adds_no_range_and_a_memset_none) {
  const auto l =
      lay_out_steps({measured_launch, riding_launch, a_memset, measured_launch, riding_launch}, 0);
  EXPECT_EQ(l.ranges, 4u);
  EXPECT_EQ(l.measured_at, (std::vector<std::size_t>{0, 2}));
}

TEST(step_layout, the_sweeps_ranges_come_before_each_measured_launch_only) {
  // Two sweep kernels before each measured launch: flush, flush, launch | riding_launch | memset |
  // flush, flush, launch.
  const auto l = lay_out_steps({measured_launch, riding_launch, a_memset, measured_launch}, 2);
  EXPECT_EQ(l.ranges, 7u);
  EXPECT_EQ(l.measured_at, (std::vector<std::size_t>{2, 6}));
}

TEST(step_layout, only_launches_measured_is_one_range_per_launch_after_its_flush) {
  const auto l = lay_out_steps(std::vector<step>(3, measured_launch), 1);
  EXPECT_EQ(l.ranges, 6u);
  EXPECT_EQ(l.measured_at, (std::vector<std::size_t>{1, 3, 5}));
  EXPECT_EQ(lay_out_steps({}, 1).ranges, 0u);
}

TEST(step_layout, in_user_range_only_the_measured_launches_are_ranges) {
  const auto l = lay_out_user_range_steps(
      {riding_launch, measured_launch, riding_launch, a_memset, measured_launch, riding_launch});
  EXPECT_EQ(l.ranges, 2u);
  EXPECT_EQ(l.measured_at, (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(lay_out_user_range_steps({riding_launch, a_memset}).ranges, 0u);
}

TEST(step_layout, user_ranges_are_found_by_name_in_any_order) {
  EXPECT_EQ(step_range_name(0), "step 0");
  EXPECT_EQ(step_range_name(12), "step 12");
  const std::vector<std::string> decoded{step_range_name(2), step_range_name(0),
                                         step_range_name(1)};
  EXPECT_EQ(step_ranges_by_name(decoded, 3), (std::vector<std::size_t>{1, 2, 0}));
  EXPECT_TRUE(step_ranges_by_name({}, 0).empty());
}

TEST(step_layout, a_missing_or_extra_user_range_is_an_error) {
  try {
    step_ranges_by_name({step_range_name(0), step_range_name(2)}, 3);
    FAIL() << "a missing range was accepted";
  } catch (const roofkit::error& e) {
    EXPECT_NE(std::string(e.what()).find("measured step 2 of 3"), std::string::npos) << e.what();
  }
  EXPECT_THROW(step_ranges_by_name({step_range_name(0), step_range_name(1)}, 1), roofkit::error);
  EXPECT_THROW(step_ranges_by_name({step_range_name(0), "step 0x"}, 1), roofkit::error);
}

TEST(step_layout, images_hold_one_range_more_in_powers_of_two) {
  const std::size_t any = 1 << 20;
  EXPECT_EQ(image_ranges(0, any), 2u);
  EXPECT_EQ(image_ranges(1, any), 2u);
  EXPECT_EQ(image_ranges(2, any), 4u);
  EXPECT_EQ(image_ranges(3, any), 4u);
  EXPECT_EQ(image_ranges(32, any), 64u);
  EXPECT_EQ(image_ranges(127, any), 128u);
  EXPECT_EQ(image_ranges(128, any), 256u);
}

TEST(step_layout, no_image_holds_more_than_the_longest_call_and_one) {
  // 128 launches a batch: the full batch's image is the warm-up's 129 ranges, not 256.
  EXPECT_EQ(image_ranges(128, 128), 129u);
  EXPECT_EQ(image_ranges(127, 128), 128u);
  EXPECT_EQ(image_ranges(100, 128), 128u);
  EXPECT_EQ(image_ranges(64, 128), 128u);
  EXPECT_EQ(image_ranges(63, 128), 64u);
  EXPECT_EQ(image_ranges(1, 1), 2u);
  EXPECT_EQ(image_ranges(0, 0), 1u) << "an empty call still gets an image of one range";
  // More than the longest (the sweep's kernels added after a failed driver flush): uncapped.
  EXPECT_EQ(image_ranges(300, 128), 512u);
}

TEST(step_layout, only_a_max_or_min_rollup_needs_values_per_unit_instance) {
  EXPECT_FALSE(reads_instances({"dram__bytes_read.sum", "sm__cycles_elapsed.avg.per_second",
                                "sm__warps_active.avg.pct_of_peak_sustained_active",
                                "sm__inst_executed.max_rate", "smsp__maximum_warps.sum"}));
  EXPECT_TRUE(reads_instances({"dram__bytes_read.sum", "gpu__time_duration.max"}));
  EXPECT_TRUE(reads_instances({"sm__cycles_active.min.per_second"}));
  EXPECT_FALSE(reads_instances({}));
}

} // namespace

// Error paths of the profiler and the timing harness on a machine without a GPU, and the CUPTI
// error mapping (permissions, another profiler, busy hardware, unsupported device).
#include <string>

#include <cupti_result.h>
#include <gtest/gtest.h>

#include "roofkit/core.hpp"
#include "roofkit/profiler.hpp"
#include "roofkit/timing.hpp"

namespace {

roofkit::error cupti_error(int status) {
  try {
    roofkit::detail::throw_cupti_error(status, "cuptiX(&p)", "f.cpp", 7);
  } catch (const roofkit::error& e) {
    return e;
  }
  return roofkit::error(roofkit::exit_code::ok, "not thrown");
}

TEST(profiler_errors, insufficient_privileges_explains_the_driver_option) {
  const auto e = cupti_error(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES);
  EXPECT_EQ(e.code(), roofkit::exit_code::no_device);
  EXPECT_NE(std::string(e.what()).find("CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"), std::string::npos);
  EXPECT_NE(e.hint().find("NVreg_RestrictProfilingToAdminUsers=0"), std::string::npos);
  EXPECT_NE(e.hint().find("timings are still produced"), std::string::npos);
}

TEST(profiler_errors, other_profiler_and_busy_hardware_say_so) {
  const auto attached = cupti_error(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);
  EXPECT_NE(attached.hint().find("another profiler"), std::string::npos);
  EXPECT_EQ(attached.code(), roofkit::exit_code::no_device); // counters unavailable: exit 3
  const auto busy = cupti_error(CUPTI_ERROR_HARDWARE_BUSY);
  EXPECT_NE(busy.hint().find("in use by another"), std::string::npos);
  EXPECT_EQ(busy.code(), roofkit::exit_code::no_device);
  const auto unsupported = cupti_error(CUPTI_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(unsupported.code(), roofkit::exit_code::no_device);
  EXPECT_NE(unsupported.hint().find("compute capability 7.5"), std::string::npos);
  // The call, file and line stay in the message.
  EXPECT_NE(std::string(busy.what()).find("cuptiX(&p) failed at f.cpp:7"), std::string::npos);
}

class no_gpu : public ::testing::Test {
protected:
  void SetUp() override {
    if (roofkit::visible_device_count() > 0)
      GTEST_SKIP() << "a GPU is visible: these tests check the no-GPU path";
  }
};

TEST_F(no_gpu, profiler_session_is_a_clear_no_device_error) {
  try {
    roofkit::profiler_session s(0, "roofline");
    FAIL() << "no error without a GPU";
  } catch (const roofkit::error& e) {
    EXPECT_EQ(e.code(), roofkit::exit_code::no_device);
    EXPECT_NE(std::string(e.what()).find("no CUDA GPU"), std::string::npos) << e.what();
    // The library names no flag: the hint says what works without a GPU.
    EXPECT_NE(e.hint().find("resolve offline"), std::string::npos) << e.hint();
  }
}

TEST_F(no_gpu, chip_name_and_status_do_not_crash) {
  // cuptiDeviceGetChipName segfaults without a driver: we must never reach it.
  EXPECT_THROW(roofkit::device_chip_name(0), roofkit::error);
  const auto status = roofkit::check_profiler(0);
  EXPECT_FALSE(status.ok);
  EXPECT_EQ(status.exit, 3);
  EXPECT_NE(status.message.find("no CUDA GPU"), std::string::npos);
}

TEST_F(no_gpu, timing_needs_a_device) {
  try {
    roofkit::time_kernel([](cudaStream_t) {});
    FAIL();
  } catch (const roofkit::error& e) {
    EXPECT_EQ(e.code(), roofkit::exit_code::no_device);
  }
}

} // namespace

// User-reachable errors: a missing device names the ones there are; internal errors name their
// source file relative to the project, never the build machine's absolute path.
#include <gtest/gtest.h>

#include "roofkit/core.hpp"

namespace {

using namespace roofkit;

TEST(user_errors, a_missing_device_names_the_visible_ones) {
  EXPECT_EQ(missing_device_message(7, {"NVIDIA H100 80GB HBM3"}),
            "device 7 does not exist; 1 GPU visible: 0 = NVIDIA H100 80GB HBM3");
  EXPECT_EQ(missing_device_message(2, {"NVIDIA H200", "NVIDIA H200"}),
            "device 2 does not exist; 2 GPUs visible: 0 = NVIDIA H200, 1 = NVIDIA H200");
  EXPECT_EQ(missing_device_message(0, {}), "device 0 does not exist; no GPU visible");
}

TEST(user_errors, require_device_refuses_with_usage_or_no_device) {
  // Without a GPU (CI): no device at all (exit 3); with one, ordinal 999 is bad usage (exit 2).
  try {
    require_device(999);
    ADD_FAILURE() << "device 999 cannot exist";
  } catch (const error& e) {
    if (e.code() == exit_code::usage)
      EXPECT_EQ(std::string(e.what()).rfind("device 999 does not exist; ", 0), 0u) << e.what();
    else
      EXPECT_EQ(e.code(), exit_code::no_device) << e.what();
  }
}

TEST(user_errors, source_paths_are_relative_to_the_project) {
  using detail::relative_source_path;
  EXPECT_EQ(relative_source_path("/any/checkout/roofkit/lib/src/bench/bench.cpp"),
            "lib/src/bench/bench.cpp");
  EXPECT_EQ(relative_source_path("/build/x/tools/roofline-cuda/bench.cpp"),
            "tools/roofline-cuda/bench.cpp");
  EXPECT_EQ(relative_source_path("/a/b/kernels/global/coalesced.cu"),
            "kernels/global/coalesced.cu");
  EXPECT_EQ(relative_source_path("/opt/lib/src/app/lib/src/core/error.cpp"),
            "lib/src/core/error.cpp");
  EXPECT_EQ(relative_source_path("/usr/somewhere/else.cpp"), "else.cpp");
  EXPECT_EQ(relative_source_path("plain.cpp"), "plain.cpp");
}

TEST(user_errors, cuda_errors_carry_call_and_relative_file) {
  try {
    detail::throw_cuda_error(101, "cudaSetDevice(options.device)", __FILE__, 193);
    ADD_FAILURE();
  } catch (const error& e) {
    const std::string m = e.what();
    EXPECT_EQ(
        m.rfind("cudaSetDevice(options.device) failed at tests/cpu/test_user_errors.cpp:193: ", 0),
        0u)
        << m;
    EXPECT_EQ(m.find(ROOFKIT_TEST_SOURCE_DIR), std::string::npos) << m;
  }
}

TEST(user_errors, a_gpu_without_code_in_this_build_names_the_flag_to_rebuild) {
  // The runtime's cudaErrorNoKernelImageForDevice (209) becomes one line naming the
  // architecture to add, never "no kernel image"; exit 3: this build cannot use the GPU.
  const std::string built(built_cuda_architectures());
  ASSERT_FALSE(built.empty());
  const std::string m = no_kernel_image_message(8, 6);
  EXPECT_NE(m.find("compute capability 8.6"), std::string::npos) << m;
  EXPECT_NE(m.find("rebuild with -DCMAKE_CUDA_ARCHITECTURES=86"), std::string::npos) << m;
  EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  EXPECT_EQ(m.find("kernel image"), std::string::npos) << m;
  try {
    detail::throw_cuda_error(209, "cudaGetLastError()", __FILE__, 10);
    ADD_FAILURE();
  } catch (const error& e) {
    EXPECT_EQ(e.code(), exit_code::no_device);
    EXPECT_NE(std::string(e.what()).find("this build has no GPU code for "), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("-DCMAKE_CUDA_ARCHITECTURES="), std::string::npos)
        << e.what();
    EXPECT_TRUE(e.hint().empty());
  }
}

} // namespace

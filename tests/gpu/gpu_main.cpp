// main() for GPU tests: exits 77 (ctest: skipped) when no CUDA device is visible.
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "roofkit/core.hpp"

int main(int argc, char** argv) {
  bool listing = false; // test discovery needs no device
  for (int i = 1; i < argc; ++i)
    listing = listing || std::string(argv[i]).rfind("--gtest_list_tests", 0) == 0;
  if (!listing && roofkit::visible_device_count() == 0) {
    std::printf("no CUDA device visible: skipping GPU tests\n");
    return 77;
  }
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

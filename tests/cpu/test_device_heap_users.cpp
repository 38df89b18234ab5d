// kernels_using_device_heap() on a cubin and a fat binary that nvcc built from
// tests/data/cubin/heap_kernels.cu, whose kernels use the device heap or not by construction.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "roofkit/app_profile.hpp"
#include "roofkit/core.hpp"

namespace {

const std::set<std::string> heap_users = {"takes_memory", "frees_through_two_calls", "aligned"};

std::set<std::string> kernels_of(const std::set<std::string>& functions) {
  std::set<std::string> kernels;
  for (const auto& f : functions)
    if (f.find('$') == std::string::npos) // device functions are "$kernel$function"
      kernels.insert(f);
  return kernels;
}

TEST(device_heap_users, cubin_lists_direct_and_indirect_callers_only) {
  const std::string image = roofkit::read_text_file(ROOFKIT_TEST_HEAP_CUBIN);
  const auto users = roofkit::kernels_using_device_heap(image.data(), image.size());
  EXPECT_EQ(kernels_of(users), heap_users);
  EXPECT_EQ(users.count("plain"), 0u);
  EXPECT_EQ(users.count("prints_only"), 0u); // printf is not the heap
}

TEST(device_heap_users, fat_binary_is_read_cubin_by_cubin) {
  const std::string image = roofkit::read_text_file(ROOFKIT_TEST_HEAP_FATBIN);
  EXPECT_EQ(kernels_of(roofkit::kernels_using_device_heap(image.data(), image.size())), heap_users);
}

TEST(device_heap_users, anything_else_gives_nothing) {
  EXPECT_TRUE(roofkit::kernels_using_device_heap(nullptr, 0).empty());
  const std::string text = "\x7f"
                           "ELF but not an image: malloc free";
  EXPECT_TRUE(roofkit::kernels_using_device_heap(text.data(), text.size()).empty());
  // A cubin cut short anywhere is read without reading past its end (ASan checks).
  const std::string image = roofkit::read_text_file(ROOFKIT_TEST_HEAP_CUBIN);
  for (std::size_t size = 0; size < image.size(); size += 97)
    roofkit::kernels_using_device_heap(image.data(), size);
}

TEST(device_heap_users, writable_variables_are_the_global_ones_with_their_sizes) {
  const std::map<std::string, std::size_t> expected = {
      {"launches_seen", 4},
      {"weights", 400},
      {"_ZN8counters16shared_with_hostE", 4},
      {"answer", 4}}; // const, but in writable memory; printf's "$str" and __constant__ are not
  for (const char* path : {ROOFKIT_TEST_HEAP_CUBIN, ROOFKIT_TEST_HEAP_FATBIN}) {
    const std::string image = roofkit::read_text_file(path);
    EXPECT_EQ(roofkit::writable_device_variables(image.data(), image.size()), expected) << path;
  }
  const std::string image = roofkit::read_text_file(ROOFKIT_TEST_HEAP_CUBIN);
  for (std::size_t size = 0; size < image.size(); size += 97)
    roofkit::writable_device_variables(image.data(), size);
  EXPECT_TRUE(roofkit::writable_device_variables(nullptr, 0).empty());
}

} // namespace

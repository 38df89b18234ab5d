// The injector's keeper of page-locked host memory (lib/inject/pinned_memory.cpp), on plain host
// buffers standing in for pinned ones: allocations and registrations are followed at their exit,
// releases at their entry; a kept copy is written back over what a restore did, and not into a
// range released meanwhile.
#include <gtest/gtest.h>

#include <cupti.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "pinned_memory.hpp"

namespace {

using roofkit::inject::pinned_memory;

void host_alloc(pinned_memory& m, void* p, std::size_t bytes, bool ok = true) {
  void* out = p;
  cuMemHostAlloc_params params{&out, bytes, 0};
  m.on_call(CUPTI_DRIVER_TRACE_CBID_cuMemHostAlloc, &params, true, false);
  m.on_call(CUPTI_DRIVER_TRACE_CBID_cuMemHostAlloc, &params, false, ok);
}

TEST(pinned_memory, a_kept_copy_undoes_a_restore_of_every_followed_range) {
  pinned_memory m;
  std::vector<int> a(1000, 1), b(500, 1), c(300, 1), loose(100, 1);
  host_alloc(m, a.data(), a.size() * sizeof(int));
  void* out = b.data();
  cuMemAllocHost_v2_params alloc{&out, b.size() * sizeof(int)};
  m.on_call(CUPTI_DRIVER_TRACE_CBID_cuMemAllocHost_v2, &alloc, false, true);
  cuMemHostRegister_v2_params reg{c.data(), c.size() * sizeof(int), 0};
  m.on_call(CUPTI_DRIVER_TRACE_CBID_cuMemHostRegister_v2, &reg, false, true);
  host_alloc(m, loose.data(), loose.size() * sizeof(int), false); // failed: not followed
  EXPECT_EQ(m.bytes(), (1000 + 500 + 300) * sizeof(int));
  // The host writes while the batch is open; the replay keeps, restores (to 1), puts back.
  a.assign(a.size(), 7);
  b.assign(b.size(), 8);
  c.assign(c.size(), 9);
  EXPECT_EQ(m.keep(), (1000 + 500 + 300) * sizeof(int));
  for (auto* v : {&a, &b, &c, &loose})
    v->assign(v->size(), 1);
  EXPECT_EQ(m.put_back(), (1000 + 500 + 300) * sizeof(int));
  EXPECT_EQ(a, std::vector<int>(1000, 7));
  EXPECT_EQ(b, std::vector<int>(500, 8));
  EXPECT_EQ(c, std::vector<int>(300, 9));
  EXPECT_EQ(loose, std::vector<int>(100, 1));
  EXPECT_EQ(m.put_back(), 0u); // once
}

TEST(pinned_memory, released_ranges_are_neither_kept_nor_written_back) {
  pinned_memory m;
  std::vector<int> a(64, 2), b(64, 3);
  host_alloc(m, a.data(), a.size() * sizeof(int));
  host_alloc(m, b.data(), b.size() * sizeof(int));
  EXPECT_EQ(m.keep(), 128 * sizeof(int));
  // Released after the copy (the release's entry, before the memory goes).
  cuMemFreeHost_params free_b{b.data()};
  m.on_call(CUPTI_DRIVER_TRACE_CBID_cuMemFreeHost, &free_b, true, false);
  b.assign(b.size(), 0);
  a.assign(a.size(), 0);
  EXPECT_EQ(m.put_back(), 64 * sizeof(int));
  EXPECT_EQ(a, std::vector<int>(64, 2));
  EXPECT_EQ(b, std::vector<int>(64, 0));
  cuMemHostUnregister_params unreg{a.data()};
  m.on_call(CUPTI_DRIVER_TRACE_CBID_cuMemHostUnregister, &unreg, true, false);
  EXPECT_EQ(m.bytes(), 0u);
  EXPECT_EQ(m.keep(), 0u);
  // Other calls are ignored.
  cuMemFreeHost_params other{a.data()};
  m.on_call(CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2, &other, true, false);
  EXPECT_EQ(m.bytes(), 0u);
}

// A launch's parameters point into page-locked memory when an aligned word falls inside a range
// (its first byte up to its last), not at its end or outside.
TEST(pinned_memory, parameters_pointing_into_a_range_are_found) {
  pinned_memory m;
  std::vector<char> buffer(4096);
  auto params_with = [](std::uintptr_t pointer) {
    std::vector<std::uint8_t> bytes(24, 0); // an int, padding, a pointer, a float
    std::memcpy(bytes.data() + 8, &pointer, sizeof pointer);
    return bytes;
  };
  const auto start = reinterpret_cast<std::uintptr_t>(buffer.data());
  EXPECT_FALSE(m.holds_pointer(params_with(start))); // nothing followed yet
  host_alloc(m, buffer.data(), buffer.size());
  EXPECT_TRUE(m.holds_pointer(params_with(start)));
  EXPECT_TRUE(m.holds_pointer(params_with(start + 4095)));
  EXPECT_FALSE(m.holds_pointer(params_with(start + 4096)));
  EXPECT_FALSE(m.holds_pointer(params_with(start - 1)));
  EXPECT_FALSE(m.holds_pointer(params_with(0)));
  EXPECT_FALSE(m.holds_pointer({}));
}

} // namespace

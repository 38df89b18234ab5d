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

// Stand-ins for two contexts: only compared, never used.
const auto context_a = reinterpret_cast<CUcontext>(std::uintptr_t{0x1000});
const auto context_b = reinterpret_cast<CUcontext>(std::uintptr_t{0x2000});

void host_alloc(pinned_memory& m, void* p, std::size_t bytes, bool ok = true,
                CUcontext ctx = context_a) {
  void* out = p;
  cuMemHostAlloc_params params{&out, bytes, 0};
  m.on_call(CUPTI_DRIVER_TRACE_CBID_cuMemHostAlloc, &params, ctx, true, false);
  m.on_call(CUPTI_DRIVER_TRACE_CBID_cuMemHostAlloc, &params, ctx, false, ok);
}

TEST(pinned_memory, a_kept_copy_undoes_a_restore_of_every_followed_range) {
  pinned_memory m;
  std::vector<int> a(1000, 1), b(500, 1), c(300, 1), loose(100, 1);
  host_alloc(m, a.data(), a.size() * sizeof(int));
  void* out = b.data();
  cuMemAllocHost_v2_params alloc{&out, b.size() * sizeof(int)};
  m.on_call(CUPTI_DRIVER_TRACE_CBID_cuMemAllocHost_v2, &alloc, context_a, false, true);
  cuMemHostRegister_v2_params reg{c.data(), c.size() * sizeof(int), 0};
  m.on_call(CUPTI_DRIVER_TRACE_CBID_cuMemHostRegister_v2, &reg, context_a, false, true);
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
  m.on_call(CUPTI_DRIVER_TRACE_CBID_cuMemFreeHost, &free_b, context_a, true, false);
  b.assign(b.size(), 0);
  a.assign(a.size(), 0);
  EXPECT_EQ(m.put_back(), 64 * sizeof(int));
  EXPECT_EQ(a, std::vector<int>(64, 2));
  EXPECT_EQ(b, std::vector<int>(64, 0));
  cuMemHostUnregister_params unreg{a.data()};
  m.on_call(CUPTI_DRIVER_TRACE_CBID_cuMemHostUnregister, &unreg, context_a, true, false);
  EXPECT_EQ(m.bytes(), 0u);
  EXPECT_EQ(m.keep(), 0u);
  // Other calls are ignored.
  cuMemFreeHost_params other{a.data()};
  m.on_call(CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2, &other, context_a, true, false);
  EXPECT_EQ(m.bytes(), 0u);
}

// Read-only and I/O registrations cannot be written back and are not followed; a legacy
// cuMemAllocHost is; a destroyed context's ranges (freed without a release call) are forgotten.
TEST(pinned_memory, registrations_flags_legacy_allocations_and_destroyed_contexts) {
  pinned_memory m;
  std::vector<int> read_only(16), io(16), legacy(32), other(8);
  for (auto [buffer, flags] : {std::pair{&read_only, CU_MEMHOSTREGISTER_READ_ONLY},
                               std::pair{&io, CU_MEMHOSTREGISTER_IOMEMORY}}) {
    cuMemHostRegister_v2_params reg{buffer->data(), buffer->size() * sizeof(int),
                                    static_cast<unsigned>(flags)};
    m.on_call(CUPTI_DRIVER_TRACE_CBID_cuMemHostRegister_v2, &reg, context_a, false, true);
  }
  EXPECT_EQ(m.bytes(), 0u);
  void* out = legacy.data();
  cuMemAllocHost_params alloc{&out, static_cast<unsigned>(legacy.size() * sizeof(int))};
  m.on_call(CUPTI_DRIVER_TRACE_CBID_cuMemAllocHost, &alloc, context_a, false, true);
  host_alloc(m, other.data(), other.size() * sizeof(int), true, context_b);
  EXPECT_EQ(m.bytes(), (32 + 8) * sizeof(int));
  m.forget_context(context_a);
  EXPECT_EQ(m.bytes(), 8 * sizeof(int));
  EXPECT_EQ(m.keep(), 8 * sizeof(int));
  EXPECT_EQ(m.put_back(), 8 * sizeof(int));
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

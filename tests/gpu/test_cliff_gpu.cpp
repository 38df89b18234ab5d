// Cliff sweeps on the GPU: every launch shape of the sweep kernels verifies against its CPU
// reference, the register-cap variants report what ptxas gave them, and a small sweep runs
// end to end with the engine's prediction equal to the CUDA runtime's.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include "roofkit/cliff.hpp"
#include "roofkit/registry.hpp"

namespace roofkit {
namespace {

void expect_verified(const kernel_descriptor& d, const launch_shape& s, problem_size size) {
  auto inst = d.make_shaped(s);
  inst->setup(size);
  inst->run(nullptr);
  const auto v = inst->verify();
  EXPECT_TRUE(v.ok) << d.name << " block " << s.block << " smem " << s.dynamic_smem_bytes << " cap "
                    << s.register_cap << ": " << v.message;
  const auto lc = inst->launch();
  if (s.block) {
    EXPECT_EQ(lc.block[0], s.block);
  }
  EXPECT_EQ(lc.dynamic_smem_bytes, s.dynamic_smem_bytes);
  inst->corrupt_output();
  EXPECT_FALSE(inst->verify().ok) << d.name << ": a corrupted output passed";
}

TEST(CliffKernels, EveryShapeVerifies) {
  for (const char* name : {"cliff/triad", "cliff/chase", "cliff/fma", "cliff/fold-cap"}) {
    const auto* d = find_kernel(name);
    ASSERT_NE(d, nullptr) << name;
    ASSERT_TRUE(d->make_shaped) << name;
    for (std::uint32_t block : {32u, 96u, 1000u, 1024u})
      for (problem_size size : d->test_sizes)
        expect_verified(*d, {block, 0, 0}, size);
    expect_verified(*d, {256, 100 * 1024, 0}, d->test_sizes.back());
  }
}

TEST(CliffKernels, RegisterCapsAreHonouredAndReadBack) {
  const auto* d = find_kernel("cliff/fold-cap");
  ASSERT_NE(d, nullptr);
  ASSERT_FALSE(d->register_caps.empty());
  for (int cap : d->register_caps) {
    expect_verified(*d, {0, 0, cap}, 100003);
    auto inst = d->make_shaped({0, 0, cap});
    inst->setup(1024);
    cudaFuncAttributes attr{};
    ASSERT_EQ(cudaFuncGetAttributes(&attr, inst->kernel_function()), cudaSuccess);
    EXPECT_LE(attr.numRegs, cap) << "cap " << cap;
    EXPECT_EQ(inst->launch().registers_per_thread, unsigned(attr.numRegs));
  }
  // The tightest cap spills (26 accumulators do not fit in 24 registers).
  auto tight = d->make_shaped({0, 0, d->register_caps.front()});
  cudaFuncAttributes attr{};
  ASSERT_EQ(cudaFuncGetAttributes(&attr, tight->kernel_function()), cudaSuccess);
  EXPECT_GT(attr.localSizeBytes, 0u);
}

TEST(CliffSweep, BlockSweepEndToEnd) {
  cliff_options_run o;
  o.kernel = "cliff/chase";
  o.axis = sweep_axis::block;
  o.range = sweep_range{64, 1024, 320, false}; // 64, 384, 704, 1024
  o.size = 1 << 20;
  o.repetitions = 5;
  o.counters = false;
  const auto r = run_cliff_sweep(o);
  ASSERT_EQ(r.points.size(), 4u);
  for (const auto& p : r.points) {
    EXPECT_EQ(p.status, "ok") << p.value << ": " << p.message;
    EXPECT_EQ(p.block, p.value);
    EXPECT_GT(p.time_median_s, 0);
    EXPECT_GT(p.rate, 0);
    EXPECT_GT(p.occupancy_theoretical, 0);
    EXPECT_EQ(p.counted.at("runtime_active_blocks"), p.active_blocks) << p.value;
  }
  EXPECT_FALSE(r.device.empty());
  EXPECT_GT(r.sm_count, 0);
}

TEST(CliffSweep, SmemSweepSkipsWhatDoesNotFit) {
  cliff_options_run o;
  o.kernel = "cliff/triad";
  o.axis = sweep_axis::smem;
  o.range = sweep_range{0, 512 * 1024, 256 * 1024, false}; // 0, 256K (too large), 512K
  o.size = 1 << 16;
  o.repetitions = 3;
  o.counters = false;
  const auto r = run_cliff_sweep(o);
  ASSERT_EQ(r.points.size(), 3u);
  EXPECT_EQ(r.points[0].status, "ok");
  EXPECT_EQ(r.points[1].status, "skipped");
  EXPECT_NE(r.points[1].message.find("no block fits"), std::string::npos);
}

} // namespace
} // namespace roofkit

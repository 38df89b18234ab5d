// Differential test: roofkit's occupancy engine against NVIDIA's cuda_occupancy.h (the toolkit's
// header, used here as an oracle only) on every architecture. Axes covered:
//   A. every block size 1..1024 x every register count 0..255, at three shared-memory sizes;
//   B. every block size at a grid of shared-memory sizes (0, 1, 48 KB +-1, opt-in +-1, ...),
//      and every allocation boundary (and +-1 byte) at a set of block sizes, static/dynamic split;
//   C. every carveout -1..100 x the boundary grid x three block sizes;
//   D. barriers 0..16 x every block size;
//   E. the block-size search (fixed and growing shared memory) and the available dynamic shared
//      memory per block.
// Any difference in blocks, per-resource limits, allocations or limiter bits fails.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <cuda_occupancy.h>
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "roofkit/arch.hpp"
#include "roofkit/occupancy.hpp"

#include "../common/occupancy_oracle.hpp"

namespace {

using roofkit::arch_spec;
using roofkit::launch_params;
using roofkit::test::oracle_device;

// What the runtime builds from cudaFuncAttributes after the user opted in to the maximum
// dynamic shared memory (cudaFuncAttributeMaxDynamicSharedMemorySize = opt-in - static).
cudaOccFuncAttributes oracle_function(const arch_spec& a, const launch_params& l) {
  cudaOccFuncAttributes f;
  f.maxThreadsPerBlock = a.max_threads_per_block;
  f.numRegs = l.registers_per_thread;
  f.sharedSizeBytes = static_cast<size_t>(l.static_smem);
  f.partitionedGCConfig = PARTITIONED_GC_OFF;
  f.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
  f.maxDynamicSharedSizeBytes = static_cast<size_t>(
      std::max<std::int64_t>(a.shared_memory_per_block_optin - l.static_smem, 0));
  f.numBlockBarriers = l.barriers;
  f.virtualResourceCount = 0;
  return f;
}

cudaOccDeviceState oracle_state(const launch_params& l) {
  cudaOccDeviceState s;
  s.carveoutConfig = l.carveout;
  return s;
}

class differential {
public:
  explicit differential(const arch_spec& a) : arch_(a), device_(oracle_device(a)) {}

  void check(const launch_params& l) {
    ++cases_;
    const auto ours = roofkit::compute_occupancy(arch_, l);
    const auto func = oracle_function(arch_, l);
    const auto state = oracle_state(l);
    cudaOccResult theirs{};
    const auto status = cudaOccMaxActiveBlocksPerMultiprocessor(
        &theirs, &device_, &func, &state, l.threads_per_block, static_cast<size_t>(l.dynamic_smem));
    if (status != CUDA_OCC_SUCCESS) {
      fail(l, fmt::format("oracle returned error {}", static_cast<int>(status)));
      return;
    }
    // cuda_occupancy.h keeps the limiter bits set before the barrier limit lowered the result;
    // roofkit recomputes them against the final value.
    const int before_barriers =
        std::min({theirs.blockLimitWarps, theirs.blockLimitBlocks, theirs.blockLimitRegs,
                  theirs.blockLimitSharedMem, theirs.blockLimitVirtual});
    unsigned expected_bits = theirs.limitingFactors;
    if (theirs.blockLimitBarriers < before_barriers) {
      if (!(theirs.limitingFactors & OCC_LIMIT_BARRIERS))
        fail(l, "oracle lowered by barriers without the barrier bit");
      expected_bits = OCC_LIMIT_BARRIERS;
    }
    std::string diff;
    auto cmp = [&](const char* what, long long a, long long b) {
      if (a != b)
        diff += fmt::format(" {}: ours {} oracle {};", what, a, b);
    };
    cmp("blocks", ours.active_blocks, theirs.activeBlocksPerMultiprocessor);
    cmp("limit_warps", ours.limit_warps, theirs.blockLimitWarps);
    cmp("limit_blocks", ours.limit_blocks, theirs.blockLimitBlocks);
    cmp("limit_registers", ours.limit_registers, theirs.blockLimitRegs);
    cmp("limit_shared_memory", ours.limit_shared_memory, theirs.blockLimitSharedMem);
    cmp("limit_barriers", ours.limit_barriers, theirs.blockLimitBarriers);
    cmp("limiters", ours.limiters, expected_bits);
    cmp("allocated_registers", ours.allocated_registers_per_block,
        theirs.allocatedRegistersPerBlock);
    cmp("allocated_smem", ours.allocated_smem_per_block,
        static_cast<long long>(theirs.allocatedSharedMemPerBlock));
    if ((ours.active_blocks == 0) != !ours.reason.empty())
      diff += " reason present iff 0 blocks;";
    if (!diff.empty())
      fail(l, diff);
  }

  void check_block_size(const launch_params& l, std::int64_t per_thread) {
    ++cases_;
    const auto func = oracle_function(arch_, l);
    const auto state = oracle_state(l);
    int grid = 0;
    int block = 0;
    cudaOccError status;
    roofkit::smem_for_block_size smem;
    if (per_thread > 0) {
      smem = [&](int t) { return l.dynamic_smem + per_thread * t; };
      status = cudaOccMaxPotentialOccupancyBlockSizeVariableSMem(
          &grid, &block, &device_, &func, &state,
          [&](int t) { return static_cast<size_t>(l.dynamic_smem + per_thread * t); });
    } else {
      status = cudaOccMaxPotentialOccupancyBlockSize(&grid, &block, &device_, &func, &state,
                                                     static_cast<size_t>(l.dynamic_smem));
    }
    const auto ours = roofkit::suggest_block_size(arch_, l, smem);
    if (status != CUDA_OCC_SUCCESS || ours.block_size != block ||
        ours.min_grid_size(device_.numSms) != grid)
      fail(l, fmt::format(" block size search (+{} B/thread): ours {} / grid {}, oracle {} / {} "
                          "(status {})",
                          per_thread, ours.block_size, ours.min_grid_size(device_.numSms), block,
                          grid, static_cast<int>(status)));
  }

  void check_available_smem(const launch_params& l, int blocks) {
    ++cases_;
    const auto func = oracle_function(arch_, l);
    const auto state = oracle_state(l);
    size_t available = 0;
    const auto status = cudaOccAvailableDynamicSMemPerBlock(&available, &device_, &func, &state,
                                                            blocks, l.threads_per_block);
    const auto ours = roofkit::max_dynamic_smem_for_blocks(arch_, l, blocks);
    const long long reported = status == CUDA_OCC_SUCCESS ? static_cast<long long>(available) : -1;
    if (ours.runtime_reported != reported) {
      fail(l, fmt::format(" available smem for {} blocks: ours says runtime {}, oracle {}", blocks,
                          ours.runtime_reported, reported));
      return;
    }
    if (ours.max_dynamic_smem < 0) {
      if (status == CUDA_OCC_SUCCESS)
        fail(l, fmt::format(" {} blocks: ours says impossible, oracle gives {}", blocks, reported));
      return;
    }
    // The correct value: the oracle itself fits `blocks` there and not one byte more.
    auto oracle_blocks = [&](std::int64_t dynamic) {
      cudaOccResult r{};
      cudaOccMaxActiveBlocksPerMultiprocessor(&r, &device_, &func, &state, l.threads_per_block,
                                              static_cast<size_t>(dynamic));
      return r.activeBlocksPerMultiprocessor;
    };
    const std::int64_t top = arch_.shared_memory_per_block_optin - l.static_smem;
    if (oracle_blocks(ours.max_dynamic_smem) < blocks ||
        (ours.max_dynamic_smem < top && oracle_blocks(ours.max_dynamic_smem + 1) >= blocks))
      fail(l, fmt::format(" {} blocks: {} B is not the largest fitting size", blocks,
                          ours.max_dynamic_smem));
    if (ours.runtime_overreports != (oracle_blocks(ours.runtime_reported) < blocks))
      fail(l, fmt::format(" {} blocks: over-report flag wrong", blocks));
  }

  long long cases() const { return cases_; }
  long long failures() const { return failures_; }
  const std::string& first_failures() const { return messages_; }

private:
  void fail(const launch_params& l, const std::string& what) {
    if (++failures_ <= 8)
      messages_ += fmt::format("  {} threads={} regs={} static={} dynamic={} carveout={} "
                               "barriers={}:{}\n",
                               arch_.id(), l.threads_per_block, l.registers_per_thread,
                               l.static_smem, l.dynamic_smem, l.carveout, l.barriers, what);
  }

  const arch_spec& arch_;
  cudaOccDeviceProp device_;
  long long cases_ = 0;
  long long failures_ = 0;
  std::string messages_;
};

/// Shared-memory totals around every place the block count can change: each allocation boundary
/// (last byte of a unit, after the reserved bytes) and one byte either side, plus 48 KB and the
/// opt-in maximum with their neighbours. `stride` keeps every stride-th boundary.
std::vector<std::int64_t> smem_boundaries(const arch_spec& a, int stride) {
  std::vector<std::int64_t> v{0,
                              1,
                              2,
                              a.shared_memory_per_block - 1,
                              a.shared_memory_per_block,
                              a.shared_memory_per_block + 1,
                              a.shared_memory_per_block_optin - 1,
                              a.shared_memory_per_block_optin,
                              a.shared_memory_per_block_optin + 1};
  const std::int64_t unit = a.shared_memory_allocation_unit;
  int k = 0;
  for (std::int64_t edge = unit - a.reserved_shared_memory_per_block;
       edge <= a.shared_memory_per_block_optin + unit; edge += unit, ++k)
    if (k % stride == 0)
      for (std::int64_t d : {-1, 0, 1})
        if (edge + d >= 0)
          v.push_back(edge + d);
  // Sizes that select each carveout exactly.
  for (std::int64_t c : a.shared_memory_carveouts)
    for (std::int64_t d : {-1, 0, 1})
      if (c - a.reserved_shared_memory_per_block + d >= 0)
        v.push_back(c - a.reserved_shared_memory_per_block + d);
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

class oracle : public ::testing::TestWithParam<std::string> {};

TEST_P(oracle, engine_matches_cuda_occupancy_h) {
  const arch_spec& a = roofkit::find_arch(GetParam());
  differential d(a);
  launch_params l;

  // A. Every block size x every register count, at three shared-memory sizes.
  for (std::int64_t smem : {std::int64_t{0}, std::int64_t{20000}, a.shared_memory_per_block})
    for (int t = 1; t <= a.max_threads_per_block; ++t)
      for (int r = 0; r <= 255; ++r) {
        l = {};
        l.threads_per_block = t;
        l.registers_per_thread = r;
        l.dynamic_smem = smem;
        d.check(l);
      }
  // Above the block-size maximum.
  for (int t : {a.max_threads_per_block + 1, a.max_threads_per_block + 32, 2048}) {
    l = {};
    l.threads_per_block = t;
    d.check(l);
  }

  // B. Block sizes x shared memory, static and dynamic.
  const auto coarse = smem_boundaries(a, 64);
  for (int r : {0, 32, 64})
    for (std::int64_t s : coarse)
      for (int t = 1; t <= a.max_threads_per_block; t += (r == 32 ? 1 : 7)) {
        l = {};
        l.threads_per_block = t;
        l.registers_per_thread = r;
        l.dynamic_smem = s;
        d.check(l);
      }
  const auto fine = smem_boundaries(a, 1);
  for (std::int64_t s : fine)
    for (int t : {1, 32, 64, 100, 128, 256, 384, 512, 1024})
      for (int r : {0, 40}) {
        l = {};
        l.threads_per_block = t;
        l.registers_per_thread = r;
        l.dynamic_smem = s;
        d.check(l);
        l.static_smem = s / 2; // the same total split between static and dynamic
        l.dynamic_smem = s - s / 2;
        d.check(l);
      }

  // C. Every carveout step x the boundary grid x three block sizes.
  const auto mid = smem_boundaries(a, 4);
  for (int c = -1; c <= 100; ++c)
    for (std::int64_t s : mid)
      for (int t : {32, 256, 1024}) {
        l = {};
        l.threads_per_block = t;
        l.registers_per_thread = 32;
        l.dynamic_smem = s;
        l.carveout = c;
        d.check(l);
      }

  // D. Barriers x block sizes.
  for (int b = 0; b <= 16; ++b)
    for (int t = 1; t <= a.max_threads_per_block; ++t) {
      l = {};
      l.threads_per_block = t;
      l.registers_per_thread = 16;
      l.barriers = b;
      d.check(l);
    }

  // E. Block-size search and available dynamic shared memory.
  for (int r = 0; r <= 255; r += (r < 80 ? 1 : 5))
    for (std::int64_t s :
         {std::int64_t{0}, std::int64_t{10000}, std::int64_t{40000}, std::int64_t{100000}})
      for (int c : {-1, 0, 50}) {
        l = {};
        l.registers_per_thread = r;
        l.dynamic_smem = s;
        l.carveout = c;
        d.check_block_size(l, 0);
        if (s <= 10000)
          for (std::int64_t per_thread : {4, 48, 100})
            d.check_block_size(l, per_thread);
      }
  for (int t : {64, 256, 1024})
    for (int r : {0, 32, 72})
      for (std::int64_t st : {std::int64_t{0}, std::int64_t{4096}})
        for (int c : {-1, 0, 25, 50, 100})
          for (int n = 1; n <= a.max_blocks_per_sm; ++n) {
            l = {};
            l.threads_per_block = t;
            l.registers_per_thread = r;
            l.static_smem = st;
            l.carveout = c;
            d.check_available_smem(l, n);
          }

  EXPECT_EQ(d.failures(), 0) << d.failures() << " of " << d.cases()
                             << " cases differ; first ones:\n"
                             << d.first_failures();
  std::printf("%s: %lld cases compared with cuda_occupancy.h\n", a.id().c_str(), d.cases());
}

std::vector<std::string> arch_ids() {
  std::vector<std::string> ids;
  for (const auto& a : roofkit::all_archs())
    ids.push_back(a.id());
  return ids;
}

INSTANTIATE_TEST_SUITE_P(every_arch, oracle, ::testing::ValuesIn(arch_ids()),
                         [](const ::testing::TestParamInfo<std::string>& param_info) {
                           return param_info.param;
                         });

TEST(oracle_coverage, all_nineteen_architectures_are_tested) {
  EXPECT_EQ(arch_ids(),
            (std::vector<std::string>{"sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70",
                                      "sm_72", "sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90",
                                      "sm_100", "sm_103", "sm_110", "sm_120", "sm_121"}));
}

} // namespace

// Counter values that are known exactly, measured through roofkit's profiler on the GPU:
// sectors and requests of the seed article's kernels, instruction counts of arithmetic loops,
// tensor FLOPs of a WMMA loop, and the DRAM bytes of a large copy.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "../../validation/programs/validation_kernels.cuh"
#include "roofkit/profiler.hpp"
#include "roofkit/timing.hpp"

namespace {

namespace rv = roofkit::validation;

class profiler_counts : public testing::Test {
protected:
  static void SetUpTestSuite() { work = std::make_unique<rv::workload>(); }
  static void TearDownTestSuite() { work.reset(); }

  // Profiles the given cases in one profile() call; one range per kernel.
  static std::vector<roofkit::range_values> run(roofkit::profiler_session& s,
                                                const std::vector<std::size_t>& ids) {
    auto ranges = s.profile([&] {
      for (auto i : ids)
        work->launch(i);
    });
    EXPECT_EQ(ranges.size(), ids.size()) << "one range per kernel launch";
    return ranges;
  }

  static double value(const roofkit::profiler_session& s, const roofkit::range_values& r,
                      const std::string& key) {
    const auto* m = s.metrics().find(key);
    if (m == nullptr) {
      ADD_FAILURE() << key << " is not in set " << s.metrics().set;
      return -1;
    }
    return r.values.at(m->name);
  }

  static std::unique_ptr<rv::workload> work;
};
std::unique_ptr<rv::workload> profiler_counts::work;

TEST_F(profiler_counts, coalescing_requests_sectors_and_wavefronts) {
  roofkit::profiler_session s(0, "coalescing");
  EXPECT_EQ(s.chip(), "GH100");
  EXPECT_EQ(s.passes(), 2);
  const auto cases = rv::workload::cases();
  const std::vector<std::size_t> ids{0, 1, 2, 3, 9, 10};
  const auto ranges = run(s, ids);
  ASSERT_EQ(ranges.size(), ids.size());
  for (std::size_t k = 0; k < ids.size(); ++k) {
    const auto& c = cases[ids[k]];
    const auto& r = ranges[k];
    std::printf("%-18s ld requests %.0f sectors %.0f | st requests %.0f sectors %.0f | shared st "
                "wavefronts %.0f conflicts %.0f\n",
                c.name.c_str(), value(s, r, "global_ld_requests"), value(s, r, "global_ld_sectors"),
                value(s, r, "global_st_requests"), value(s, r, "global_st_sectors"),
                value(s, r, "shared_st_wavefronts"), value(s, r, "shared_st_conflicts"));
    if (c.ld_requests > 0) {
      EXPECT_EQ(value(s, r, "global_ld_requests"), c.ld_requests) << c.name;
      EXPECT_EQ(value(s, r, "global_ld_sectors"), c.ld_sectors) << c.name;
    }
    if (c.smem_st_wavefronts > 0)
      EXPECT_EQ(value(s, r, "shared_st_wavefronts"), c.smem_st_wavefronts) << c.name;
  }
  // The article's figures, spelled out.
  EXPECT_EQ(value(s, ranges[0], "global_ld_sectors"), 8388608.0);
  EXPECT_EQ(value(s, ranges[0], "global_ld_requests"), 2097152.0);
  EXPECT_EQ(value(s, ranges[1], "global_ld_sectors"), 67108864.0);
  EXPECT_EQ(value(s, ranges[2], "global_ld_sectors"), 33554432.0);
  EXPECT_EQ(value(s, ranges[3], "global_ld_sectors"), 268435456.0);
  EXPECT_EQ(value(s, ranges[3], "global_ld_requests"), 8388608.0);
  EXPECT_EQ(value(s, ranges[4], "shared_st_conflicts"), 0.0);
  EXPECT_GT(value(s, ranges[5], "shared_st_conflicts"), 0.0);
}

TEST_F(profiler_counts, roofline_instruction_counts_tensor_flops_and_dram_bytes) {
  roofkit::profiler_session s(0, "roofline");
  std::printf("roofline set on %s: %d passes, %zu metrics\n", s.chip().c_str(), s.passes(),
              s.metrics().metrics.size());
  EXPECT_LE(s.passes(), 4);
  const auto cases = rv::workload::cases();
  const std::vector<std::size_t> ids{4, 5, 6, 7, 8, 0};
  const auto ranges = run(s, ids);
  ASSERT_EQ(ranges.size(), ids.size());
  using roofkit::precision;
  std::map<std::string, roofkit::roofline_counts> counts;
  for (std::size_t k = 0; k < ids.size(); ++k) {
    const auto c = roofkit::derive_roofline_counts(s.metrics(), ranges[k].values);
    counts[cases[ids[k]].name] = c;
    std::printf(
        "%-12s ffma %.0f dfma %.0f hfma %.0f | fp32 %.4g fp64 %.4g fp16 %.4g tensor_fp16 "
        "%.4g FLOP | dram r %.4g w %.4g l2 %.4g l1 %.4g B | %.3f us, SM %.0f MHz, DRAM "
        "%.0f MHz, occupancy %.3f\n",
        cases[ids[k]].name.c_str(), value(s, ranges[k], "ffma"), value(s, ranges[k], "dfma"),
        value(s, ranges[k], "hfma"),
        c.flops.count(precision::fp32) ? c.flops.at(precision::fp32) : 0.0,
        c.flops.count(precision::fp64) ? c.flops.at(precision::fp64) : 0.0,
        c.flops.count(precision::fp16) ? c.flops.at(precision::fp16) : 0.0,
        c.flops.count(precision::tensor_fp16) ? c.flops.at(precision::tensor_fp16) : 0.0,
        c.dram_read_bytes, c.dram_write_bytes,
        c.bytes.count(roofkit::memory_level::l2) ? c.bytes.at(roofkit::memory_level::l2) : 0.0,
        c.bytes.count(roofkit::memory_level::l1) ? c.bytes.at(roofkit::memory_level::l1) : 0.0,
        c.time_s * 1e6, c.sm_clock_hz / 1e6, c.dram_clock_hz / 1e6,
        c.achieved_occupancy.value_or(-1));
  }
  // Arithmetic: exactly the instructions launched; FMA = 2 FLOPs, HFMA2 = 4 (half2).
  EXPECT_EQ(value(s, ranges[0], "ffma"), cases[4].ffma);
  EXPECT_EQ(value(s, ranges[1], "dfma"), cases[5].dfma);
  EXPECT_EQ(value(s, ranges[2], "hfma"), cases[6].hfma);
  EXPECT_GE(counts["ffma_loop"].flops[precision::fp32], 2 * cases[4].ffma);
  EXPECT_EQ(counts["dfma_loop"].flops[precision::fp64], 2 * cases[5].dfma);
  EXPECT_EQ(counts["hfma2_loop"].flops[precision::fp16], 4 * cases[6].hfma);
  // Tensor ops are FLOPs already (an MMA's multiply-add counts 2).
  EXPECT_EQ(counts["wmma_fp16"].flops[precision::tensor_fp16], cases[7].tensor_fp16_flops)
      << "ratio " << counts["wmma_fp16"].flops[precision::tensor_fp16] / cases[7].tensor_fp16_flops;
  // The copy moves its 2 GiB through DRAM within 2%.
  const auto& copy = counts["copy"];
  const double dram = copy.dram_read_bytes + copy.dram_write_bytes;
  EXPECT_NEAR(dram / cases[8].dram_bytes, 1.0, 0.02)
      << "read " << copy.dram_read_bytes << " write " << copy.dram_write_bytes;
  EXPECT_NEAR(copy.dram_read_bytes / (cases[8].dram_bytes / 2), 1.0, 0.02);
  EXPECT_GT(copy.time_s, 0.0);
  EXPECT_GT(copy.sm_clock_hz, 5e8);
  EXPECT_GT(copy.dram_clock_hz, 1e8);
  ASSERT_TRUE(copy.achieved_occupancy);
  EXPECT_GT(*copy.achieved_occupancy, 0.3);
  EXPECT_LE(*copy.achieved_occupancy, 1.0);
  EXPECT_TRUE(copy.missing.empty());
  // L2 (what the L2 returns to the SMs) carries at least the bytes read from DRAM; L1 (the LSU
  // writeback path) carries at least the loaded bytes of the coalesced kernel.
  EXPECT_GE(copy.bytes.at(roofkit::memory_level::l2), 0.98 * copy.dram_read_bytes);
  const double coalesced_l1 = counts["coalesced"].bytes.at(roofkit::memory_level::l1);
  EXPECT_GE(coalesced_l1, 0.98 * 4.0 * rv::vector_n);
  EXPECT_LE(coalesced_l1, 1.02 * 2.0 * 4.0 * rv::vector_n);
}

namespace cache_kernels {
// Reads n floats (a working set that fits in the L2) and writes one sum per block.
__global__ void read_small(const float* __restrict__ x, std::size_t n, float* out) {
  float acc = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    acc += x[i];
  if (threadIdx.x == 0)
    out[blockIdx.x] = acc;
}
// Each thread loads `loads` conflict-free 4-byte words from shared memory: one 128-byte
// wavefront per warp-wide load.
__global__ void shared_loads(int loads, float* out) {
  __shared__ float tile[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x)
    tile[i] = float(i);
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < loads; ++k)
    acc += tile[(threadIdx.x + 32 * k) & 1023];
  if (acc == -1.0f)
    out[blockIdx.x] = acc;
}

// The small read profiled after a large memset that leaves the L2 full of dirty lines: before each
// pass the memset and a first read run, then the read is the profiled work.
struct dirty_then_read {
  static constexpr std::size_t n = std::size_t(2) << 20; // 8 MiB of floats
  static constexpr std::size_t dirty_bytes = std::size_t(256) << 20;
  float* x = nullptr;
  float* out = nullptr;
  void* dirty = nullptr;
  bool ready = false;
  dirty_then_read() {
    ready = cudaMalloc(&x, n * sizeof(float)) == cudaSuccess &&
            cudaMalloc(&out, 1024 * sizeof(float)) == cudaSuccess &&
            cudaMalloc(&dirty, dirty_bytes) == cudaSuccess &&
            cudaMemset(x, 0, n * sizeof(float)) == cudaSuccess;
  }
  ~dirty_then_read() {
    cudaFree(x);
    cudaFree(out);
    cudaFree(dirty);
  }
  dirty_then_read(const dirty_then_read&) = delete;
  dirty_then_read& operator=(const dirty_then_read&) = delete;
  void work() const { read_small<<<264, 512>>>(x, n, out); }
  void before_pass() const {
    cudaMemsetAsync(dirty, 1, dirty_bytes);
    work();
  }
  static double bytes() { return double(n * sizeof(float)); }
};
} // namespace cache_kernels
using cache_kernels::dirty_then_read;
using cache_kernels::read_small;
using cache_kernels::shared_loads;

// Cache control: the same small read profiled after a large memset left the L2 full of dirty
// lines. With `all` every pass starts clean: the reads come from DRAM and nothing is written
// back; with `none` the kernel pays for the memset's write-backs and finds its data in L2.
TEST_F(profiler_counts, cache_control_all_and_none) {
  const dirty_then_read r;
  ASSERT_TRUE(r.ready);
  std::map<std::string, roofkit::roofline_counts> seen;
  // "all" with the driver's flush where available, "all-sweep" with roofkit's own sweep.
  for (const std::string mode : {"all", "all-sweep", "none"}) {
    roofkit::profiler_options o;
    o.cache = mode == "none" ? roofkit::cache_control::none : roofkit::cache_control::all;
    o.driver_flush = mode == "all";
    roofkit::profiler_session s(0, "roofline", o);
    const auto ranges = s.profile_launches([&] { r.work(); }, [&] { r.before_pass(); });
    ASSERT_EQ(ranges.size(), 1u);
    const auto c = roofkit::derive_roofline_counts(s.metrics(), ranges[0].values);
    std::printf("cache control %s (%s): dram read %.6g write %.6g, L2 %.6g, L1 %.6g B\n",
                mode.c_str(), s.cache_control_method().c_str(), c.dram_read_bytes,
                c.dram_write_bytes, c.bytes.at(roofkit::memory_level::l2),
                c.bytes.at(roofkit::memory_level::l1));
    if (mode == "all-sweep")
      EXPECT_EQ(s.cache_control_method().rfind("sweep", 0), 0u) << s.cache_control_method();
    seen[mode] = c;
  }
  const double bytes = dirty_then_read::bytes();
  const double warps = 264.0 * 512 / 32;
  for (const char* mode : {"all", "all-sweep"}) {
    const auto& all = seen[mode];
    EXPECT_NEAR(all.dram_read_bytes, bytes, std::max(0.01 * bytes, 65536.0)) << mode;
    EXPECT_LE(all.dram_write_bytes, 65536.0)
        << mode << ": a clean L2, no write-back of earlier work";
    // L1: the loaded bytes plus one writeback cycle per warp (8,929,280 B on the H100); L2: the
    // bytes returned to the SMs, with their request traffic (9,114,720 B).
    EXPECT_GE(all.bytes.at(roofkit::memory_level::l1), bytes) << mode;
    EXPECT_LE(all.bytes.at(roofkit::memory_level::l1), bytes + 1.01 * 128 * warps) << mode;
    EXPECT_GE(all.bytes.at(roofkit::memory_level::l2), bytes) << mode;
    EXPECT_LE(all.bytes.at(roofkit::memory_level::l2), 1.10 * bytes) << mode;
  }
  const auto& all = seen["all"];
  // Without cache control the memset's dirty lines are written back during the kernel (805,888
  // B on the H100). The reads are not served by the L2 either: the profiler's own set-up at the
  // start of each pass displaces the 8 MiB, so warm-cache reads are not asserted.
  const auto& none = seen["none"];
  EXPECT_GT(none.dram_write_bytes, all.dram_write_bytes + 65536.0);
}

// With the driver's flush only the leading passes, those of the counters that depend on the cache
// state (resolved_set::cold_passes), start from an emptied L2; the DRAM counters must be among
// them: a pass that was not flushed sees the memset's dirty lines written back during the kernel.
// The counts in the other passes are exact whatever the L2 holds.
TEST_F(profiler_counts, only_the_cold_passes_are_flushed_and_they_hold_the_dram_counters) {
  const dirty_then_read r;
  ASSERT_TRUE(r.ready);
  roofkit::profiler_session s(0, roofkit::bench_metric_set());
  const auto ranges = s.profile_launches([&] { r.work(); }, [&] { r.before_pass(); });
  ASSERT_EQ(ranges.size(), 1u);
  const auto& set = s.metrics();
  const auto c = roofkit::derive_roofline_counts(set, ranges[0].values);
  const auto count = [&](const char* name) { return ranges[0].values.at(name); };
  std::printf("bench set on %s: %d passes, %d flushed (%s); dram read %.6g write %.6g B\n",
              s.chip().c_str(), set.passes, s.cache_controlled_passes(),
              s.cache_control_method().c_str(), c.dram_read_bytes, c.dram_write_bytes);
  if (s.cache_control_method() != "driver")
    GTEST_SKIP() << "the driver's flush is not available here: "
                 << s.cache_control_fallback_reason();
  if (s.chip() == "GH100")
    EXPECT_EQ(set.cold_passes, 1) << "1 of 4 passes (CPU test metric_sets.profile_set_on_gh100...)";
  EXPECT_EQ(s.cache_controlled_passes(), set.cold_passes < 0 ? set.passes : set.cold_passes);
  const double bytes = dirty_then_read::bytes();
  const double n = dirty_then_read::n;
  EXPECT_NEAR(c.dram_read_bytes, bytes, std::max(0.01 * bytes, 65536.0));
  EXPECT_LE(c.dram_write_bytes, 65536.0) << "a clean L2, no write-back of the memset";
  // One warp-wide 4-byte load per 32 floats, 4 sectors each; thread 0 of each block stores once.
  EXPECT_EQ(count("smsp__sass_inst_executed_op_global_ld.sum"), n / 32);
  EXPECT_EQ(count("smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum"), n / 8);
  EXPECT_EQ(count("smsp__sass_data_bytes_mem_global_op_ld.sum"), bytes);
  EXPECT_EQ(count("smsp__sass_inst_executed_op_global_st.sum"), 264.0);
}

// Where the driver can be reached, cache control uses its write-back and invalidate of the L2,
// and the session then holds no sweep buffer (4 x L2 of device memory the application keeps).
TEST_F(profiler_counts, cache_control_uses_the_drivers_flush_where_it_can) {
  auto taken_by_session = [](bool driver_flush, std::string& method,
                             std::string* reason = nullptr) {
    std::size_t before = 0, after = 0, total = 0;
    EXPECT_EQ(cudaMemGetInfo(&before, &total), cudaSuccess);
    roofkit::profiler_options po;
    po.driver_flush = driver_flush;
    roofkit::profiler_session s(0, "roofline", po);
    s.enable_range_profiler(); // decides the method
    method = s.cache_control_method();
    if (reason)
      *reason = s.cache_control_fallback_reason();
    EXPECT_EQ(cudaMemGetInfo(&after, &total), cudaSuccess);
    return double(before) - double(after);
  };
  std::string sweep_method, sweep_reason, method, reason;
  const double sweep_taken = taken_by_session(false, sweep_method, &sweep_reason);
  const double driver_taken = taken_by_session(true, method, &reason);
  if (method == "sweep")
    GTEST_SKIP() << "the driver's flush is not available here: " << reason;
  EXPECT_EQ(method, "driver");
  EXPECT_EQ(reason, "");
  EXPECT_EQ(sweep_method, "sweep");
  EXPECT_EQ(sweep_reason, "not asked for (profiler_options::driver_flush)");
  int l2 = 0;
  ASSERT_EQ(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0), cudaSuccess);
  std::printf("device memory taken by a session: %.1f MB with the sweep, %.1f MB with the "
              "driver's flush (sweep buffer %.1f MB)\n",
              sweep_taken / 1e6, driver_taken / 1e6, 4.0 * l2 / 1e6);
  EXPECT_GE(sweep_taken - driver_taken, 0.9 * 4.0 * l2);
}

// L1 counts shared-memory loads: 128 bytes per conflict-free warp-wide load.
TEST_F(profiler_counts, l1_includes_shared_memory) {
  float* out = nullptr;
  ASSERT_EQ(cudaMalloc(&out, 1024 * sizeof(float)), cudaSuccess);
  roofkit::profiler_session s(0, "roofline");
  const int blocks = 264, threads = 256, loads = 256;
  const auto ranges = s.profile_launches([&] { shared_loads<<<blocks, threads>>>(loads, out); });
  ASSERT_EQ(ranges.size(), 1u);
  const auto c = roofkit::derive_roofline_counts(s.metrics(), ranges[0].values);
  const double expected = 128.0 * loads * blocks * (threads / 32);
  std::printf("shared loads: L1 %.6g B (expected %.6g from loads), dram %.6g\n",
              c.bytes.at(roofkit::memory_level::l1), expected,
              c.dram_read_bytes + c.dram_write_bytes);
  // The loads, plus the tile's stores (4 wavefronts a warp) and one writeback cycle a warp:
  // about 2% more.
  EXPECT_GE(c.bytes.at(roofkit::memory_level::l1), expected);
  EXPECT_LE(c.bytes.at(roofkit::memory_level::l1), 1.03 * expected);
  cudaFree(out);
}

// User range + user replay around the copy, with the L2 flushed before every pass.
TEST_F(profiler_counts, user_range_with_flush_before_each_pass) {
  roofkit::profiler_session s(0, "roofline");
  roofkit::l2_flusher flusher(0);
  int calls = 0;
  const auto r = s.profile_range(
      "copy",
      [&] {
        work->launch(8);
        ++calls;
      },
      [&] { flusher.flush(); });
  EXPECT_EQ(r.name, "copy");
  EXPECT_EQ(calls, s.passes());
  const auto c = roofkit::derive_roofline_counts(s.metrics(), r.values);
  const double expected = rv::workload::cases()[8].dram_bytes;
  std::printf("user range copy: dram read %.6g write %.6g (expected %.6g total), %d passes\n",
              c.dram_read_bytes, c.dram_write_bytes, expected, calls);
  EXPECT_NEAR((c.dram_read_bytes + c.dram_write_bytes) / expected, 1.0, 0.02);
}

// One kernel per call, as roofline-cuda profile re-issues a launch: exact counts, a duration
// that is the kernel's own (auto range, close to the plain profile()'s), the profiler kept
// between calls, and a work of two kernels refused.
TEST_F(profiler_counts, launch_by_launch_is_the_kernel_alone) {
  roofkit::profiler_session s(0, "roofline");
  const auto cases = rv::workload::cases();
  const auto whole = run(s, {4});
  ASSERT_EQ(whole.size(), 1u);
  const double t_auto = value(s, whole[0], "time");
  for (int call = 0; call < 3; ++call) {
    int launches = 0;
    const auto r = s.profile_launch([&] {
      work->launch(4);
      ++launches;
    });
    EXPECT_EQ(launches, s.passes());
    EXPECT_EQ(value(s, r, "ffma"), cases[4].ffma) << "call " << call;
    const double t = value(s, r, "time");
    std::printf("launch %d: ffma %.0f, %.3f us (profile(): %.3f us)\n", call, value(s, r, "ffma"),
                t / 1e3, t_auto / 1e3);
    EXPECT_NEAR(t / t_auto, 1.0, 0.25) << "a range of the kernel alone, no launch overhead";
  }
  EXPECT_THROW(s.profile_launch([&] {
    work->launch(4);
    work->launch(4);
  }),
               roofkit::error);
}

// A call that fails inside a pass (here the work, after the profiler started the pass) ends that
// pass and leaves the session usable, with exact counts at the next call.
TEST_F(profiler_counts, a_failed_pass_leaves_the_session_usable) {
  roofkit::profiler_session s(0, "roofline");
  const auto cases = rv::workload::cases();
  EXPECT_EQ(value(s, s.profile_launch([&] { work->launch(4); }), "ffma"), cases[4].ffma);
  EXPECT_THROW(s.profile_launch([] { throw roofkit::runtime_error("the work failed"); }),
               roofkit::error);
  const auto again = s.profile_launch([&] { work->launch(4); });
  EXPECT_EQ(value(s, again, "ffma"), cases[4].ffma) << "the session works after a failed pass";
}

// More launches than the counter image holds: the extra ranges are dropped with a warning.
TEST_F(profiler_counts, dropped_ranges_are_reported) {
  std::vector<std::string> warnings;
  roofkit::profiler_options o;
  o.max_ranges = 2;
  o.warn = [&](const std::string& w) { warnings.push_back(w); };
  roofkit::profiler_session s(0, "coalescing", o);
  // Two launches (max_ranges) fit without a warning; five fill the image (max_ranges + 1).
  auto ranges = s.profile([&] {
    for (int i = 0; i < 2; ++i)
      work->launch(9);
  });
  EXPECT_EQ(ranges.size(), 2u);
  EXPECT_TRUE(warnings.empty());
  ranges = s.profile([&] {
    for (int i = 0; i < 5; ++i)
      work->launch(9);
  });
  EXPECT_EQ(ranges.size(), 3u);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("filled up with 3 ranges"), std::string::npos) << warnings[0];
}

// Timings come from the harness, apart from replay: an idle session does not change them.
TEST_F(profiler_counts, idle_session_leaves_timings_alone) {
  roofkit::timing_options o;
  o.repetitions = 15;
  o.observe_clock = false;
  const auto launch = [&](cudaStream_t) { work->launch(8); };
  const double alone = roofkit::time_kernel(launch, o).time.median_s;
  roofkit::profiler_session s(0, "roofline");
  const double beside = roofkit::time_kernel(launch, o).time.median_s;
  std::printf("copy: %.1f us without a session, %.1f us beside an idle one\n", alone * 1e6,
              beside * 1e6);
  EXPECT_NEAR(beside / alone, 1.0, 0.05);
}

} // namespace

// ROOFKIT_DRIVER_FLUSH=off forces the sweep, and the session says why.
TEST_F(profiler_counts, driver_flush_off_in_the_environment_forces_the_sweep) {
  setenv("ROOFKIT_DRIVER_FLUSH", "off", 1);
  std::string method, reason;
  {
    roofkit::profiler_options po;
    po.warn = [](const std::string&) {};
    roofkit::profiler_session s(0, "roofline", po);
    s.enable_range_profiler();
    method = s.cache_control_method();
    reason = s.cache_control_fallback_reason();
  }
  unsetenv("ROOFKIT_DRIVER_FLUSH");
  EXPECT_EQ(method, "sweep");
  EXPECT_EQ(reason, "ROOFKIT_DRIVER_FLUSH=off");
}

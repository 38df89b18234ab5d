// The interconnect roof on this node: nothing on one GPU; on two or more, every ordered pair's
// peer copies and NCCL's all-reduce (when NCCL is found: ROOFKIT_NCCL_LIB, the loader's path or
// PyTorch's wheel), each figure held to the datasheet NVLink bandwidth where there is one.
#include <cstdio>
#include <set>

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include "roofkit/core.hpp"
#include "roofkit/interconnect.hpp"
#include "roofkit/ranks.hpp"

namespace {

TEST(interconnect_gpu, pairs_and_all_reduce_within_the_links) {
  roofkit::interconnect_options o;
  o.repetitions = 3;
  o.max_all_reduce_bytes = 64.0 * 1024 * 1024;
  const auto r = roofkit::measure_interconnect(o);
  EXPECT_EQ(r.gpus, roofkit::visible_device_count());
  if (r.gpus < 2) {
    EXPECT_TRUE(r.pairs.empty());
    EXPECT_TRUE(r.all_reduce.empty());
    return;
  }
  ASSERT_EQ(r.pairs.size(), static_cast<std::size_t>(r.gpus * (r.gpus - 1)));
  std::set<std::pair<int, int>> seen;
  for (const auto& p : r.pairs) {
    EXPECT_NE(p.src, p.dst);
    seen.insert({p.src, p.dst});
    EXPECT_GT(p.one_way_bps, 1e9) << p.src << " -> " << p.dst;
    EXPECT_GT(p.both_ways_bps, p.one_way_bps * 0.9); // two directions at once move more
    if (r.theoretical && p.peer_access) { // nothing above the links: a bug, never clamped
      EXPECT_LE(p.one_way_bps, r.theoretical->per_direction_bps);
      EXPECT_LE(p.both_ways_bps, 2 * r.theoretical->per_direction_bps);
    }
  }
  EXPECT_EQ(seen.size(), r.pairs.size());
  if (!r.nccl_note.empty()) {
    std::printf("%s\n", r.nccl_note.c_str());
    return;
  }
  ASSERT_FALSE(r.all_reduce.empty());
  EXPECT_GT(r.nccl_version, 0);
  for (const auto& p : r.all_reduce) {
    EXPECT_GT(p.time_s, 0);
    EXPECT_DOUBLE_EQ(p.algbw, p.bytes / p.time_s);
    EXPECT_NEAR(p.busbw, p.algbw * 2.0 * (r.gpus - 1) / r.gpus, p.busbw * 1e-12);
    if (r.theoretical) {
      EXPECT_LE(p.busbw, r.theoretical->per_direction_bps) << p.bytes << " bytes";
    }
  }
  // Large messages reach more of the links than small ones (latency bound).
  EXPECT_GT(r.all_reduce.back().busbw, 4 * r.all_reduce.front().busbw);
}

// NVML's NVLink counters against a peer copy of known size: GPU 0 sends at least the copy's
// bytes, and at most a quarter more (the counters are the whole GPU's); GPU 1 receives them.
TEST(interconnect_gpu, nvlink_counters_count_a_peer_copy) {
  if (roofkit::visible_device_count() < 2)
    GTEST_SKIP() << "needs two GPUs";
  int can = 0;
  ROOFKIT_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, 0, 1));
  if (can == 0)
    GTEST_SKIP() << "GPUs 0 and 1 have no peer access";
  const std::size_t bytes = std::size_t{512} << 20;
  void* src = nullptr;
  void* dst = nullptr;
  char bus0[32] = {};
  char bus1[32] = {};
  ROOFKIT_CUDA_CHECK(cudaDeviceGetPCIBusId(bus0, sizeof bus0, 0));
  ROOFKIT_CUDA_CHECK(cudaDeviceGetPCIBusId(bus1, sizeof bus1, 1));
  ROOFKIT_CUDA_CHECK(cudaSetDevice(1));
  ROOFKIT_CUDA_CHECK(cudaMalloc(&dst, bytes));
  ROOFKIT_CUDA_CHECK(cudaSetDevice(0));
  ROOFKIT_CUDA_CHECK(cudaMalloc(&src, bytes));
  ROOFKIT_CUDA_CHECK(cudaMemset(src, 1, bytes));
  if (cudaDeviceEnablePeerAccess(1, 0) != cudaSuccess)
    (void)cudaGetLastError(); // enabled already
  ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
  const roofkit::nvlink_meter sent(bus0);
  const roofkit::nvlink_meter received(bus1);
  ROOFKIT_CUDA_CHECK(cudaMemcpyPeer(dst, 1, src, 0, bytes));
  ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
  const roofkit::nvlink_traffic t0 = sent.since_start();
  const roofkit::nvlink_traffic t1 = received.since_start();
  ROOFKIT_CUDA_CHECK(cudaFree(src));
  ROOFKIT_CUDA_CHECK(cudaSetDevice(1));
  ROOFKIT_CUDA_CHECK(cudaFree(dst));
  ROOFKIT_CUDA_CHECK(cudaSetDevice(0));
  if (t0.counter.empty())
    GTEST_SKIP() << "NVLink counters not read: " << t0.why;
  std::printf("%s: GPU 0 sent %.0f bytes, GPU 1 received %.0f, for a copy of %zu\n",
              t0.counter.c_str(), t0.tx_bytes, t1.rx_bytes, bytes);
  const double b = static_cast<double>(bytes);
  EXPECT_GE(t0.tx_bytes, b);
  EXPECT_LE(t0.tx_bytes, 1.25 * b);
  EXPECT_GE(t1.rx_bytes, b);
  EXPECT_LE(t1.rx_bytes, 1.25 * b);
}

} // namespace

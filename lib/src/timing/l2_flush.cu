// The kernels of l2_flusher. The read sweep streams a buffer several times the L2 size through
// the L2, so that every line a kernel left there is evicted (dirty ones written back) and the L2
// ends up holding clean lines of the flush buffer only; the discard sweep then invalidates those
// (discard.global.L2, sm_80+), so the L2 holds no valid line at all, as after Nsight Compute's
// cache control. The discard must follow the whole read sweep: a line discarded right after its
// read would free its slot for the next read, and older lines would never be evicted. So the two
// sweeps are either two launches or one cooperative launch with a grid-wide barrier between them
// (one kernel: one range fewer in every profiled pass).
#include <algorithm>

#include <cooperative_groups.h>

#include "internal/clock_probe.hpp"
#include "roofkit/core.hpp"

namespace roofkit::detail {

namespace {
constexpr int sweep_threads = 512;

__device__ void read_sweep(const uint4* __restrict__ data, std::size_t count, unsigned salt,
                           unsigned* sink) {
  unsigned acc = 0;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
#pragma unroll 4
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    const uint4 v = data[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  // The buffer holds zeros, so acc is 0 and this store never happens; the compiler cannot know.
  if (acc == salt)
    *sink = acc;
}

__device__ void discard_sweep(char* data, std::size_t lines) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < lines; i += stride)
    asm volatile("discard.global.L2 [%0], 128;" : : "l"(data + i * 128) : "memory");
#endif
}

__global__ void l2_read_sweep(const uint4* __restrict__ data, std::size_t count, unsigned salt,
                              unsigned* sink) {
  read_sweep(data, count, salt, sink);
}

__global__ void l2_discard_sweep(char* data, std::size_t lines) { discard_sweep(data, lines); }

// Every block's loads have returned (their values feed `acc`) before any block passes the
// barrier, so no discard precedes a read.
__global__ void l2_read_discard_sweep(uint4* data, std::size_t count, unsigned salt,
                                      unsigned* sink) {
  read_sweep(data, count, salt, sink);
  cooperative_groups::this_grid().sync();
  discard_sweep(reinterpret_cast<char*>(data), count * sizeof(uint4) / 128);
}
} // namespace

int l2_read_discard_blocks(int device, int per_sm) {
  int cooperative = 0;
  ROOFKIT_CUDA_CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
  int major = 0;
  ROOFKIT_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  if (!cooperative || major < 8)
    return 0;
  int resident = 0;
  ROOFKIT_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, l2_read_discard_sweep,
                                                                   sweep_threads, 0));
  int sms = 0;
  ROOFKIT_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return std::min(per_sm, resident) * sms;
}

cudaError_t launch_l2_read_discard_sweep(void* buffer, std::size_t bytes, unsigned salt,
                                         unsigned* sink, int blocks, cudaStream_t stream) {
  auto* data = static_cast<uint4*>(buffer);
  std::size_t count = bytes / 16;
  unsigned odd_salt = salt | 1u;
  void* args[] = {&data, &count, &odd_salt, &sink};
  return cudaLaunchCooperativeKernel(reinterpret_cast<void*>(l2_read_discard_sweep), dim3(blocks),
                                     dim3(sweep_threads), args, 0, stream);
}

void launch_l2_discard_sweep(void* buffer, std::size_t bytes, int blocks, cudaStream_t stream) {
  l2_discard_sweep<<<blocks, sweep_threads, 0, stream>>>(static_cast<char*>(buffer), bytes / 128);
}

void launch_l2_read_sweep(const void* buffer, std::size_t bytes, unsigned salt, unsigned* sink,
                          int blocks, cudaStream_t stream) {
  l2_read_sweep<<<blocks, sweep_threads, 0, stream>>>(static_cast<const uint4*>(buffer), bytes / 16,
                                                      salt | 1u, sink);
}

} // namespace roofkit::detail

// The kernels of l2_flusher. The read sweep streams a buffer several times the L2 size through
// the L2, so that every line a kernel left there is evicted (dirty ones written back) and the L2
// ends up holding clean lines of the flush buffer only; the discard sweep then invalidates those
// (discard.global.L2, sm_80+), so the L2 holds no valid line at all, as after Nsight Compute's
// cache control. Two launches: a line discarded right after its read would free its slot for
// the next read, and older lines would never be evicted.
#include "clock_probe.hpp"

namespace roofkit::detail {

namespace {
__global__ void l2_read_sweep(const uint4* __restrict__ data, std::size_t count, unsigned salt,
                              unsigned* sink) {
  unsigned acc = 0;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    const uint4 v = data[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  // The buffer holds zeros, so acc is 0 and this store never happens; the compiler cannot know.
  if (acc == salt)
    *sink = acc;
}
__global__ void l2_discard_sweep(char* data, std::size_t lines) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < lines; i += stride)
    asm volatile("discard.global.L2 [%0], 128;" : : "l"(data + i * 128) : "memory");
#endif
}
} // namespace

void launch_l2_discard_sweep(void* buffer, std::size_t bytes, int blocks, cudaStream_t stream) {
  l2_discard_sweep<<<blocks, 512, 0, stream>>>(static_cast<char*>(buffer), bytes / 128);
}

void launch_l2_read_sweep(const void* buffer, std::size_t bytes, unsigned salt, unsigned* sink,
                          int blocks, cudaStream_t stream) {
  l2_read_sweep<<<blocks, 512, 0, stream>>>(static_cast<const uint4*>(buffer), bytes / 16,
                                            salt | 1u, sink);
}

} // namespace roofkit::detail

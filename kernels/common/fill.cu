#include "common/fill.hpp"

#include "roofkit/core.hpp"

namespace roofkit::kernels {

namespace {

__global__ void fill_random_kernel(float* p, std::size_t n, std::uint64_t seed, value_kind kind) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    p[i] = random_value(seed, i, kind);
}

} // namespace

void fill_random(float* p, std::size_t n, std::uint64_t seed, value_kind kind,
                 cudaStream_t stream) {
  if (n == 0)
    return;
  const std::size_t threads = 256;
  const std::size_t blocks =
      (n + threads - 1) / threads < 16384 ? (n + threads - 1) / threads : 16384;
  fill_random_kernel<<<static_cast<unsigned>(blocks), static_cast<unsigned>(threads), 0, stream>>>(
      p, n, seed, kind);
  ROOFKIT_CUDA_CHECK(cudaGetLastError());
}

void poison(void* p, std::size_t bytes, cudaStream_t stream) {
  if (bytes > 0)
    ROOFKIT_CUDA_CHECK(cudaMemsetAsync(p, 0xFF, bytes, stream));
}

} // namespace roofkit::kernels

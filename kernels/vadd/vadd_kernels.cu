#include "vadd/vadd_kernels.hpp"

#include "common/launch.cuh"
#include "roofkit/core.hpp"

namespace roofkit::kernels {

namespace {

__global__ void vadd_kernel(const float* a, const float* b, float* c, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

__global__ void vadd_grid_stride_kernel(const float* a, const float* b, float* c, std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(blockDim.x) * gridDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    c[i] = a[i] + b[i];
}

} // namespace

void launch_vadd(const launch_config& lc, const float* a, const float* b, float* c, std::size_t n,
                 cudaStream_t stream) {
  vadd_kernel<<<grid_of(lc), block_of(lc), 0, stream>>>(a, b, c, n);
  ROOFKIT_CUDA_CHECK(cudaGetLastError());
}

void launch_vadd_grid_stride(const launch_config& lc, const float* a, const float* b, float* c,
                             std::size_t n, cudaStream_t stream) {
  vadd_grid_stride_kernel<<<grid_of(lc), block_of(lc), 0, stream>>>(a, b, c, n);
  ROOFKIT_CUDA_CHECK(cudaGetLastError());
}

const void* vadd_function() { return reinterpret_cast<const void*>(&vadd_kernel); }
const void* vadd_grid_stride_function() {
  return reinterpret_cast<const void*>(&vadd_grid_stride_kernel);
}

} // namespace roofkit::kernels

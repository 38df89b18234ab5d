#include "unified/unified_kernels.hpp"

#include "common/launch.cuh"
#include "roofkit/core.hpp"

namespace roofkit::kernels {

namespace {

__global__ void managed_add_kernel(const float* x, const float* y, float* z, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    z[i] = x[i] + y[i];
}

} // namespace

void launch_managed_add(const launch_config& lc, const float* x, const float* y, float* z,
                        std::size_t n, cudaStream_t stream) {
  managed_add_kernel<<<grid_of(lc), block_of(lc), 0, stream>>>(x, y, z, n);
  ROOFKIT_CUDA_CHECK(cudaGetLastError());
}

const void* managed_add_function() { return reinterpret_cast<const void*>(&managed_add_kernel); }

} // namespace roofkit::kernels

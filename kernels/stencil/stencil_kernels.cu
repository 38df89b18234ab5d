#include "stencil/stencil_kernels.hpp"

#include "common/launch.cuh"
#include "roofkit/core.hpp"

namespace roofkit::kernels {

namespace {

__global__ void smooth_naive_kernel(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
  if (i < n - 1)
    out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0f;
}

__global__ void smooth_shared_kernel(const float* in, float* out, int n) {
  __shared__ float tile[stencil_block + 2];
  const int tid = threadIdx.x;
  const int i = blockIdx.x * stencil_block + tid + 1;
  if (i < n)
    tile[tid + 1] = in[i];
  if (tid == 0)
    tile[0] = in[i - 1];
  // The right halo comes from the block's last thread, or from the last one with work.
  if ((tid == stencil_block - 1 || i == n - 2) && i + 1 < n)
    tile[tid + 2] = in[i + 1];
  __syncthreads();
  if (i < n - 1)
    out[i] = (tile[tid] + tile[tid + 1] + tile[tid + 2]) / 3.0f;
}

} // namespace

void launch_smooth(const launch_config& lc, bool shared, const float* in, float* out, int n,
                   cudaStream_t stream) {
  if (shared)
    smooth_shared_kernel<<<grid_of(lc), block_of(lc), 0, stream>>>(in, out, n);
  else
    smooth_naive_kernel<<<grid_of(lc), block_of(lc), 0, stream>>>(in, out, n);
  ROOFKIT_CUDA_CHECK(cudaGetLastError());
}

const void* smooth_function(bool shared) {
  return shared ? reinterpret_cast<const void*>(&smooth_shared_kernel)
                : reinterpret_cast<const void*>(&smooth_naive_kernel);
}

} // namespace roofkit::kernels

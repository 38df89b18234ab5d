#include "gemm/gemm_kernels.hpp"

#include <cstddef>

#include "common/launch.cuh"
#include "roofkit/core.hpp"

namespace roofkit::kernels {

namespace {

__global__ void gemm_naive_kernel(const float* a, const float* b, float* c, int n) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n && col < n) {
    const float* a_row = a + static_cast<std::size_t>(row) * n;
    float sum = 0.0f;
    for (int k = 0; k < n; ++k)
      sum = fmaf(a_row[k], b[static_cast<std::size_t>(k) * n + col], sum);
    c[static_cast<std::size_t>(row) * n + col] = sum;
  }
}

template <int Tile>
__global__ void gemm_tiled_kernel(const float* a, const float* b, float* c, int n) {
  __shared__ float a_tile[Tile][Tile];
  __shared__ float b_tile[Tile][Tile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * Tile + ty;
  const int col = blockIdx.x * Tile + tx;
  float sum = 0.0f;
  for (int p = 0; p < n; p += Tile) {
    // Each thread brings one element of each tile; outside the matrix it brings a zero.
    a_tile[ty][tx] = (row < n && p + tx < n) ? a[static_cast<std::size_t>(row) * n + p + tx] : 0.0f;
    b_tile[ty][tx] = (p + ty < n && col < n) ? b[static_cast<std::size_t>(p + ty) * n + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < Tile; ++k)
      sum = fmaf(a_tile[ty][k], b_tile[k][tx], sum);
    __syncthreads();
  }
  if (row < n && col < n)
    c[static_cast<std::size_t>(row) * n + col] = sum;
}

} // namespace

void launch_gemm(const launch_config& lc, int tile, const float* a, const float* b, float* c, int n,
                 cudaStream_t stream) {
  const dim3 g = grid_of(lc), blk = block_of(lc);
  switch (tile) {
  case 0:
    gemm_naive_kernel<<<g, blk, 0, stream>>>(a, b, c, n);
    break;
  case 16:
    gemm_tiled_kernel<16><<<g, blk, 0, stream>>>(a, b, c, n);
    break;
  case 32:
    gemm_tiled_kernel<32><<<g, blk, 0, stream>>>(a, b, c, n);
    break;
  default:
    throw usage_error("GEMM tile must be 0 (naive), 16 or 32");
  }
  ROOFKIT_CUDA_CHECK(cudaGetLastError());
}

const void* gemm_function(int tile) {
  switch (tile) {
  case 0:
    return reinterpret_cast<const void*>(&gemm_naive_kernel);
  case 16:
    return reinterpret_cast<const void*>(&gemm_tiled_kernel<16>);
  case 32:
    return reinterpret_cast<const void*>(&gemm_tiled_kernel<32>);
  default:
    return nullptr;
  }
}

} // namespace roofkit::kernels

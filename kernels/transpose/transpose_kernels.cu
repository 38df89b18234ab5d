#include "transpose/transpose_kernels.hpp"

#include <cstddef>

#include "common/launch.cuh"
#include "roofkit/core.hpp"

namespace roofkit::kernels {

namespace {

constexpr int tile = transpose_tile;
constexpr int rows = transpose_block_rows;

__device__ __forceinline__ std::size_t at(int row, int col, int n) {
  return static_cast<std::size_t>(row) * n + col;
}

__global__ void copy_kernel(const float* in, float* out, int n) {
  const int col = blockIdx.x * tile + threadIdx.x;
  const int row0 = blockIdx.y * tile + threadIdx.y;
  if (col >= n)
    return;
  for (int j = 0; j < tile; j += rows)
    if (row0 + j < n)
      out[at(row0 + j, col, n)] = in[at(row0 + j, col, n)];
}

// out[row][col] = in[col][row]: the writes are coalesced, the reads stride n floats.
__global__ void naive_kernel(const float* in, float* out, int n) {
  const int col = blockIdx.x * tile + threadIdx.x;
  const int row0 = blockIdx.y * tile + threadIdx.y;
  if (col >= n)
    return;
  for (int j = 0; j < tile; j += rows)
    if (row0 + j < n)
      out[at(row0 + j, col, n)] = in[at(col, row0 + j, n)];
}

// Pad = 0: a warp reading a column of the tile hits one bank 32 times; Pad = 1 spreads it.
template <int Pad> __global__ void shared_kernel(const float* in, float* out, int n) {
  __shared__ float buf[tile][tile + Pad];
  const int tx = threadIdx.x, ty = threadIdx.y;
  int col = blockIdx.x * tile + tx;
  int row = blockIdx.y * tile + ty;
  for (int j = 0; j < tile; j += rows)
    if (col < n && row + j < n)
      buf[ty + j][tx] = in[at(row + j, col, n)];
  __syncthreads();
  // The block writes the transposed tile: its rows are the input tile's columns.
  col = blockIdx.y * tile + tx;
  row = blockIdx.x * tile + ty;
  for (int j = 0; j < tile; j += rows)
    if (col < n && row + j < n)
      out[at(row + j, col, n)] = buf[tx][ty + j];
}

} // namespace

void launch_transpose(const launch_config& lc, transpose_variant v, const float* in, float* out,
                      int n, cudaStream_t stream) {
  const dim3 g = grid_of(lc), b = block_of(lc);
  switch (v) {
  case transpose_variant::copy:
    copy_kernel<<<g, b, 0, stream>>>(in, out, n);
    break;
  case transpose_variant::naive:
    naive_kernel<<<g, b, 0, stream>>>(in, out, n);
    break;
  case transpose_variant::shared:
    shared_kernel<0><<<g, b, 0, stream>>>(in, out, n);
    break;
  case transpose_variant::padded:
    shared_kernel<1><<<g, b, 0, stream>>>(in, out, n);
    break;
  }
  ROOFKIT_CUDA_CHECK(cudaGetLastError());
}

const void* transpose_function(transpose_variant v) {
  switch (v) {
  case transpose_variant::copy:
    return reinterpret_cast<const void*>(&copy_kernel);
  case transpose_variant::naive:
    return reinterpret_cast<const void*>(&naive_kernel);
  case transpose_variant::shared:
    return reinterpret_cast<const void*>(&shared_kernel<0>);
  case transpose_variant::padded:
    return reinterpret_cast<const void*>(&shared_kernel<1>);
  }
  return nullptr;
}

} // namespace roofkit::kernels

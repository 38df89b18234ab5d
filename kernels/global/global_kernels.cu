#include "global/global_kernels.hpp"

#include "common/launch.cuh"
#include "roofkit/core.hpp"

namespace roofkit::kernels {

namespace {

__global__ void coalesced_kernel(const float* in, float* out, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = in[t] * 2.0f;
}

// The gather index wraps around n, as in the seed, so the input stays n floats for any stride.
// With stride * (n - 1) < 2^32 the product fits 32 bits and the modulo is a 32-bit one.
template <int Stride>
__global__ void strided_kernel(const float* in, float* out, unsigned n, bool narrow) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    const unsigned idx =
        narrow ? (t * Stride) % n
               : static_cast<unsigned>((static_cast<unsigned long long>(t) * Stride) % n);
    out[t] = in[idx] * 2.0f;
  }
}

__global__ void offset_kernel(const float* in, float* out, unsigned n, int offset) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t + offset] = in[t + offset] * 2.0f;
}

template <bool ColumnMajor>
__global__ void matrix_kernel(const float* in, float* out, int width, int height) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < height && col < width) {
    const std::size_t idx = ColumnMajor ? static_cast<std::size_t>(col) * height + row
                                        : static_cast<std::size_t>(row) * width + col;
    out[idx] = in[idx] * 2.0f + 1.0f;
  }
}

template <int Stride> const void* strided_symbol() {
  return reinterpret_cast<const void*>(&strided_kernel<Stride>);
}

} // namespace

void launch_coalesced(const launch_config& lc, const float* in, float* out, int n,
                      cudaStream_t stream) {
  coalesced_kernel<<<grid_of(lc), block_of(lc), 0, stream>>>(in, out, n);
  ROOFKIT_CUDA_CHECK(cudaGetLastError());
}

void launch_strided(const launch_config& lc, int stride, const float* in, float* out, unsigned n,
                    cudaStream_t stream) {
  const bool narrow = static_cast<unsigned long long>(stride) * (n - 1ull) < (1ull << 32);
  const dim3 g = grid_of(lc), b = block_of(lc);
  switch (stride) {
  case 1:
    strided_kernel<1><<<g, b, 0, stream>>>(in, out, n, narrow);
    break;
  case 2:
    strided_kernel<2><<<g, b, 0, stream>>>(in, out, n, narrow);
    break;
  case 4:
    strided_kernel<4><<<g, b, 0, stream>>>(in, out, n, narrow);
    break;
  case 8:
    strided_kernel<8><<<g, b, 0, stream>>>(in, out, n, narrow);
    break;
  case 16:
    strided_kernel<16><<<g, b, 0, stream>>>(in, out, n, narrow);
    break;
  case 32:
    strided_kernel<32><<<g, b, 0, stream>>>(in, out, n, narrow);
    break;
  default:
    throw usage_error("stride must be 1, 2, 4, 8, 16 or 32");
  }
  ROOFKIT_CUDA_CHECK(cudaGetLastError());
}

void launch_offset(const launch_config& lc, int offset, const float* in, float* out, unsigned n,
                   cudaStream_t stream) {
  offset_kernel<<<grid_of(lc), block_of(lc), 0, stream>>>(in, out, n, offset);
  ROOFKIT_CUDA_CHECK(cudaGetLastError());
}

void launch_matrix(const launch_config& lc, bool column_major, const float* in, float* out,
                   int width, int height, cudaStream_t stream) {
  if (column_major)
    matrix_kernel<true><<<grid_of(lc), block_of(lc), 0, stream>>>(in, out, width, height);
  else
    matrix_kernel<false><<<grid_of(lc), block_of(lc), 0, stream>>>(in, out, width, height);
  ROOFKIT_CUDA_CHECK(cudaGetLastError());
}

const void* coalesced_function() { return reinterpret_cast<const void*>(&coalesced_kernel); }

const void* strided_function(int stride) {
  switch (stride) {
  case 1:
    return strided_symbol<1>();
  case 2:
    return strided_symbol<2>();
  case 4:
    return strided_symbol<4>();
  case 8:
    return strided_symbol<8>();
  case 16:
    return strided_symbol<16>();
  case 32:
    return strided_symbol<32>();
  default:
    return nullptr;
  }
}

const void* offset_function() { return reinterpret_cast<const void*>(&offset_kernel); }

const void* matrix_function(bool column_major) {
  return column_major ? reinterpret_cast<const void*>(&matrix_kernel<true>)
                      : reinterpret_cast<const void*>(&matrix_kernel<false>);
}

} // namespace roofkit::kernels

#include "reduce/reduce_kernels.hpp"

#include "common/launch.cuh"
#include "roofkit/core.hpp"

namespace roofkit::kernels {

namespace {

template <bool Dot>
__device__ __forceinline__ float term(const float* x, const float* y, std::size_t i) {
  if (Dot)
    return x[i] * y[i];
  return x[i];
}

__device__ __forceinline__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xFFFFFFFFu, v, offset);
  return v;
}

// The block's sum in lane 0 of warp 0 (block size a multiple of 32, at most 1024).
__device__ __forceinline__ float block_sum(float v) {
  __shared__ float warp_sums[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  v = warp_sum(v);
  if (lane == 0)
    warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < static_cast<int>(blockDim.x >> 5) ? warp_sums[lane] : 0.0f;
    v = warp_sum(v);
  }
  return v;
}

template <bool Dot>
__global__ void atomic_kernel(const float* x, const float* y, float* slots, std::size_t n,
                              unsigned parity) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i == 0)
    slots[parity ^ 1u] = 0.0f;
  if (i < n)
    atomicAdd(&slots[parity], term<Dot>(x, y, i));
}

template <bool Dot>
__global__ void shared_tree_kernel(const float* x, const float* y, float* slots, std::size_t n,
                                   unsigned parity) {
  __shared__ float cache[reduce_block];
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * reduce_block + tid;
  cache[tid] = i < n ? term<Dot>(x, y, i) : 0.0f;
  __syncthreads();
  for (unsigned stride = reduce_block / 2; stride > 0; stride >>= 1) {
    if (tid < stride)
      cache[tid] += cache[tid + stride];
    __syncthreads();
  }
  if (tid == 0) {
    atomicAdd(&slots[parity], cache[0]);
    if (blockIdx.x == 0)
      slots[parity ^ 1u] = 0.0f;
  }
}

template <bool Dot>
__global__ void warp_shuffle_kernel(const float* x, const float* y, float* slots, std::size_t n,
                                    unsigned parity) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const float v = block_sum(i < n ? term<Dot>(x, y, i) : 0.0f);
  if (threadIdx.x == 0) {
    atomicAdd(&slots[parity], v);
    if (blockIdx.x == 0)
      slots[parity ^ 1u] = 0.0f;
  }
}

template <bool Dot>
__global__ void partial_sums_kernel(const float* x, const float* y, float* partials,
                                    std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  float v = 0.0f;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    v += term<Dot>(x, y, i);
  v = block_sum(v);
  if (threadIdx.x == 0)
    partials[blockIdx.x] = v;
}

__global__ void final_sum_kernel(const float* partials, float* result, unsigned count) {
  float v = 0.0f;
  for (unsigned i = threadIdx.x; i < count; i += blockDim.x)
    v += partials[i];
  v = block_sum(v);
  if (threadIdx.x == 0)
    result[0] = v;
}

template <bool Dot>
void launch(const launch_config& lc, reduce_method method, const float* x, const float* y,
            float* result, float* partials, std::size_t n, unsigned parity, cudaStream_t s) {
  const dim3 g = grid_of(lc), b = block_of(lc);
  switch (method) {
  case reduce_method::atomic:
    atomic_kernel<Dot><<<g, b, 0, s>>>(x, y, result, n, parity);
    break;
  case reduce_method::shared_tree:
    shared_tree_kernel<Dot><<<g, b, 0, s>>>(x, y, result, n, parity);
    break;
  case reduce_method::warp_shuffle:
    warp_shuffle_kernel<Dot><<<g, b, 0, s>>>(x, y, result, n, parity);
    break;
  case reduce_method::two_pass:
    partial_sums_kernel<Dot><<<g, b, 0, s>>>(x, y, partials, n);
    ROOFKIT_CUDA_CHECK(cudaGetLastError());
    final_sum_kernel<<<1, 1024, 0, s>>>(partials, result, g.x);
    break;
  }
  ROOFKIT_CUDA_CHECK(cudaGetLastError());
}

template <bool Dot> const void* function(reduce_method method) {
  switch (method) {
  case reduce_method::atomic:
    return reinterpret_cast<const void*>(&atomic_kernel<Dot>);
  case reduce_method::shared_tree:
    return reinterpret_cast<const void*>(&shared_tree_kernel<Dot>);
  case reduce_method::warp_shuffle:
    return reinterpret_cast<const void*>(&warp_shuffle_kernel<Dot>);
  case reduce_method::two_pass:
    return reinterpret_cast<const void*>(&partial_sums_kernel<Dot>);
  }
  return nullptr;
}

} // namespace

void launch_reduce(const launch_config& lc, reduce_method method, const float* x, const float* y,
                   float* result, float* partials, std::size_t n, unsigned parity,
                   cudaStream_t stream) {
  if (y != nullptr)
    launch<true>(lc, method, x, y, result, partials, n, parity, stream);
  else
    launch<false>(lc, method, x, y, result, partials, n, parity, stream);
}

const void* reduce_function(reduce_method method, bool dot) {
  return dot ? function<true>(method) : function<false>(method);
}

} // namespace roofkit::kernels

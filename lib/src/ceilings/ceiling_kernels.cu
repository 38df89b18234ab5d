#include "ceiling_kernels.hpp"

namespace roofkit::ceiling_kernels {

namespace {

__global__ void copy_kernel(const float4* __restrict__ in, float4* __restrict__ out,
                            std::size_t count) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    out[i] = in[i];
}

__global__ void copy_once_kernel(const float4* __restrict__ in, float4* __restrict__ out,
                                 std::size_t count) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count)
    out[i] = in[i];
}

__global__ void fill_kernel(float* data, std::size_t count, float seed) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    data[i] = seed + float(i % 1021) * 0.001f;
}

template <class T> __global__ void fma_kernel(T* out, int iterations) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  T a[8];
#pragma unroll
  for (int j = 0; j < 8; ++j)
    a[j] = T(t % 7 + j) * T(0.001);
  const T x = T(0.999999), y = T(0.000001);
#pragma unroll 16
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int j = 0; j < 8; ++j)
      a[j] = a[j] * x + y;
  }
  T sum = 0;
#pragma unroll
  for (int j = 0; j < 8; ++j)
    sum += a[j];
  out[t] = sum;
}

} // namespace

void launch_copy(const void* in, void* out, std::size_t count4, int blocks, int threads,
                 cudaStream_t stream) {
  copy_kernel<<<blocks, threads, 0, stream>>>(static_cast<const float4*>(in),
                                              static_cast<float4*>(out), count4);
}

void launch_copy_once(const void* in, void* out, std::size_t count4, int threads,
                      cudaStream_t stream) {
  const std::size_t blocks = (count4 + threads - 1) / threads;
  copy_once_kernel<<<unsigned(blocks), threads, 0, stream>>>(static_cast<const float4*>(in),
                                                             static_cast<float4*>(out), count4);
}

void launch_fill(float* data, std::size_t count, float seed, cudaStream_t stream) {
  fill_kernel<<<1024, 256, 0, stream>>>(data, count, seed);
}

void launch_fma_f32(float* out, int iterations, int blocks, int threads, cudaStream_t stream) {
  fma_kernel<float><<<blocks, threads, 0, stream>>>(out, iterations);
}

void launch_fma_f64(double* out, int iterations, int blocks, int threads, cudaStream_t stream) {
  fma_kernel<double><<<blocks, threads, 0, stream>>>(out, iterations);
}

} // namespace roofkit::ceiling_kernels

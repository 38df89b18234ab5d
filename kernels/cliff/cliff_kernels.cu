#include "cliff/cliff_kernels.hpp"

#include "cliff/chase_next.hpp"
#include "common/launch.cuh"
#include "roofkit/core.hpp"

namespace roofkit::kernels {

namespace {

__global__ void triad_kernel(float* __restrict__ a, const float* __restrict__ b,
                             const float* __restrict__ c, std::uint32_t n) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = __fadd_rn(b[i], __fmul_rn(3.0f, c[i]));
}

__global__ void chase_kernel(const float* __restrict__ table, std::uint32_t n,
                             float* __restrict__ out, std::uint32_t threads) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= threads)
    return;
  std::uint32_t i = chase_start(t, n);
  float sum = 0.0f;
  for (int s = 0; s < chase_steps; ++s) {
    const float v = table[i];
    sum = __fadd_rn(sum, v);
    i = chase_next(i, __float_as_uint(v), n);
  }
  out[t] = sum;
}

__global__ void fma_kernel(const float* __restrict__ in, float* __restrict__ out, std::uint32_t n) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const float x = __fmul_rn(in[i], 0.5f);
  float a[fma_chains];
#pragma unroll
  for (int k = 0; k < fma_chains; ++k)
    a[k] = 0.25f * k;
#pragma unroll 16
  for (int it = 0; it < fma_iterations; ++it)
#pragma unroll
    for (int k = 0; k < fma_chains; ++k)
      a[k] = __fmaf_rn(a[k], x, 0.5f);
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < fma_chains; ++k)
    s = __fadd_rn(s, a[k]);
  out[i] = s;
}

// Dynamic shared memory above the default 48 KB needs the function's opt-in.
void allow_smem(const void* fn, std::uint32_t bytes) {
  if (bytes > 48 * 1024)
    ROOFKIT_CUDA_CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            static_cast<int>(bytes)));
}

} // namespace

void launch_cliff_triad(const launch_config& lc, float* a, const float* b, const float* c,
                        std::uint32_t n, cudaStream_t stream) {
  allow_smem(cliff_triad_function(), lc.dynamic_smem_bytes);
  triad_kernel<<<grid_of(lc), block_of(lc), lc.dynamic_smem_bytes, stream>>>(a, b, c, n);
  ROOFKIT_CUDA_CHECK(cudaGetLastError());
}
const void* cliff_triad_function() { return reinterpret_cast<const void*>(&triad_kernel); }

void launch_cliff_chase(const launch_config& lc, const float* table, std::uint32_t n, float* out,
                        cudaStream_t stream) {
  allow_smem(cliff_chase_function(), lc.dynamic_smem_bytes);
  chase_kernel<<<grid_of(lc), block_of(lc), lc.dynamic_smem_bytes, stream>>>(table, n, out,
                                                                             chase_threads);
  ROOFKIT_CUDA_CHECK(cudaGetLastError());
}
const void* cliff_chase_function() { return reinterpret_cast<const void*>(&chase_kernel); }

void launch_cliff_fma(const launch_config& lc, const float* in, float* out, std::uint32_t n,
                      cudaStream_t stream) {
  allow_smem(cliff_fma_function(), lc.dynamic_smem_bytes);
  fma_kernel<<<grid_of(lc), block_of(lc), lc.dynamic_smem_bytes, stream>>>(in, out, n);
  ROOFKIT_CUDA_CHECK(cudaGetLastError());
}
const void* cliff_fma_function() { return reinterpret_cast<const void*>(&fma_kernel); }

} // namespace roofkit::kernels

#include "layout/layout_kernels.hpp"

#include "common/launch.cuh"
#include "roofkit/core.hpp"

namespace roofkit::kernels {

namespace {

struct pixel {
  float r, g, b;
};

// Round-to-nearest intrinsics keep the compiler from fusing into FMAs, so the CPU reference
// (separate multiplies and adds) matches bit for bit.
__device__ __forceinline__ float luma(float r, float g, float b) {
  return __fadd_rn(__fadd_rn(__fmul_rn(luma_r, r), __fmul_rn(luma_g, g)), __fmul_rn(luma_b, b));
}

template <bool AllFields>
__global__ void aos_kernel(const pixel* pixels, float* out, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    if (AllFields)
      out[i] = luma(pixels[i].r, pixels[i].g, pixels[i].b);
    else
      out[i] = 2.0f * pixels[i].r;
  }
}

template <bool AllFields>
__global__ void soa_kernel(const float* r, const float* g, const float* b, float* out,
                           std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    if (AllFields)
      out[i] = luma(r[i], g[i], b[i]);
    else
      out[i] = 2.0f * r[i];
  }
}

} // namespace

void launch_aos(const launch_config& lc, bool all_fields, const float* pixels, float* out,
                std::size_t n, cudaStream_t stream) {
  const auto* p = reinterpret_cast<const pixel*>(pixels);
  if (all_fields)
    aos_kernel<true><<<grid_of(lc), block_of(lc), 0, stream>>>(p, out, n);
  else
    aos_kernel<false><<<grid_of(lc), block_of(lc), 0, stream>>>(p, out, n);
  ROOFKIT_CUDA_CHECK(cudaGetLastError());
}

void launch_soa(const launch_config& lc, bool all_fields, const float* r, const float* g,
                const float* b, float* out, std::size_t n, cudaStream_t stream) {
  if (all_fields)
    soa_kernel<true><<<grid_of(lc), block_of(lc), 0, stream>>>(r, g, b, out, n);
  else
    soa_kernel<false><<<grid_of(lc), block_of(lc), 0, stream>>>(r, g, b, out, n);
  ROOFKIT_CUDA_CHECK(cudaGetLastError());
}

const void* aos_function(bool all_fields) {
  return all_fields ? reinterpret_cast<const void*>(&aos_kernel<true>)
                    : reinterpret_cast<const void*>(&aos_kernel<false>);
}

const void* soa_function(bool all_fields) {
  return all_fields ? reinterpret_cast<const void*>(&soa_kernel<true>)
                    : reinterpret_cast<const void*>(&soa_kernel<false>);
}

} // namespace roofkit::kernels

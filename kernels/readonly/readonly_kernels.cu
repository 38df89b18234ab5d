#include "readonly/readonly_kernels.hpp"

#include "common/launch.cuh"
#include "roofkit/core.hpp"

namespace roofkit::kernels {

namespace {

// Rounded intrinsics: no FMA contraction, the CPU reference matches bit for bit.
__global__ void plain_kernel(const float* in, const float* w, float* out, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < readonly_taps; ++k)
      s = __fadd_rn(s, __fmul_rn(w[k], in[i + k]));
    out[i] = s;
  }
}

__global__ void restrict_kernel(const float* __restrict__ in, const float* __restrict__ w,
                                float* __restrict__ out, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < readonly_taps; ++k)
      s = __fadd_rn(s, __fmul_rn(w[k], in[i + k]));
    out[i] = s;
  }
}

__global__ void ldg_kernel(const float* in, const float* w, float* out, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < readonly_taps; ++k)
      s = __fadd_rn(s, __fmul_rn(__ldg(w + k), __ldg(in + i + k)));
    out[i] = s;
  }
}

} // namespace

void launch_readonly(const launch_config& lc, readonly_variant v, const float* in, const float* w,
                     float* out, std::size_t n, cudaStream_t stream) {
  const dim3 g = grid_of(lc), b = block_of(lc);
  switch (v) {
  case readonly_variant::plain:
    plain_kernel<<<g, b, 0, stream>>>(in, w, out, n);
    break;
  case readonly_variant::restrict_pointers:
    restrict_kernel<<<g, b, 0, stream>>>(in, w, out, n);
    break;
  case readonly_variant::ldg:
    ldg_kernel<<<g, b, 0, stream>>>(in, w, out, n);
    break;
  }
  ROOFKIT_CUDA_CHECK(cudaGetLastError());
}

const void* readonly_function(readonly_variant v) {
  switch (v) {
  case readonly_variant::plain:
    return reinterpret_cast<const void*>(&plain_kernel);
  case readonly_variant::restrict_pointers:
    return reinterpret_cast<const void*>(&restrict_kernel);
  case readonly_variant::ldg:
    return reinterpret_cast<const void*>(&ldg_kernel);
  }
  return nullptr;
}

} // namespace roofkit::kernels

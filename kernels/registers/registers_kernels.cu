#include "registers/registers_kernels.hpp"

#include "common/launch.cuh"
#include "registers/fold.cuh"
#include "roofkit/core.hpp"

namespace roofkit::kernels {

namespace {

__global__ void __launch_bounds__(register_block)
    k22_free_kernel(const float* __restrict__ in, float* __restrict__ out, unsigned n) {
  fold<22>(in, out, n);
}
__global__ void __launch_bounds__(register_block)
    k24_free_kernel(const float* __restrict__ in, float* __restrict__ out, unsigned n) {
  fold<24>(in, out, n);
}
__global__ void __maxnreg__(32)
    k26_cap32_kernel(const float* __restrict__ in, float* __restrict__ out, unsigned n) {
  fold<26>(in, out, n);
}
__global__ void __maxnreg__(33)
    k26_cap33_kernel(const float* __restrict__ in, float* __restrict__ out, unsigned n) {
  fold<26>(in, out, n);
}
__global__ void __maxnreg__(24)
    k26_cap24_kernel(const float* __restrict__ in, float* __restrict__ out, unsigned n) {
  fold<26>(in, out, n);
}

} // namespace

int register_accumulators(register_variant v) {
  switch (v) {
  case register_variant::k22_free:
    return 22;
  case register_variant::k24_free:
    return 24;
  default:
    return 26;
  }
}

void launch_register_kernel(const launch_config& lc, register_variant v, const float* in,
                            float* out, unsigned n, cudaStream_t stream) {
  const dim3 g = grid_of(lc), b = block_of(lc);
  switch (v) {
  case register_variant::k22_free:
    k22_free_kernel<<<g, b, 0, stream>>>(in, out, n);
    break;
  case register_variant::k24_free:
    k24_free_kernel<<<g, b, 0, stream>>>(in, out, n);
    break;
  case register_variant::k26_cap32:
    k26_cap32_kernel<<<g, b, 0, stream>>>(in, out, n);
    break;
  case register_variant::k26_cap33:
    k26_cap33_kernel<<<g, b, 0, stream>>>(in, out, n);
    break;
  case register_variant::k26_cap24:
    k26_cap24_kernel<<<g, b, 0, stream>>>(in, out, n);
    break;
  }
  ROOFKIT_CUDA_CHECK(cudaGetLastError());
}

const void* register_function(register_variant v) {
  switch (v) {
  case register_variant::k22_free:
    return reinterpret_cast<const void*>(&k22_free_kernel);
  case register_variant::k24_free:
    return reinterpret_cast<const void*>(&k24_free_kernel);
  case register_variant::k26_cap32:
    return reinterpret_cast<const void*>(&k26_cap32_kernel);
  case register_variant::k26_cap33:
    return reinterpret_cast<const void*>(&k26_cap33_kernel);
  case register_variant::k26_cap24:
    return reinterpret_cast<const void*>(&k26_cap24_kernel);
  }
  return nullptr;
}

} // namespace roofkit::kernels

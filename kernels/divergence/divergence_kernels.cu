#include "divergence/divergence_kernels.hpp"

#include "common/launch.cuh"
#include "roofkit/core.hpp"

namespace roofkit::kernels {

namespace {

// Rounded intrinsics: no FMA contraction, so the CPU reference matches bit for bit.
template <int Split> __global__ void branches_kernel(const float* in, float* out, unsigned n) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  const unsigned lane = threadIdx.x & 31u;
  const bool path_a = Split == 0 ? ((t >> 5) & 1u) == 0 : lane < static_cast<unsigned>(Split);
  float x = in[t];
  if (path_a) {
    for (int i = 0; i < branch_iterations; ++i)
      x = __fadd_rn(__fmul_rn(x, 0.999f), 0.001f);
  } else {
    for (int i = 0; i < branch_iterations; ++i)
      x = __fadd_rn(__fmul_rn(x, x), -0.25f);
  }
  out[t] = x;
}

template <int Split> const void* symbol() {
  return reinterpret_cast<const void*>(&branches_kernel<Split>);
}

} // namespace

void launch_branches(const launch_config& lc, int split, const float* in, float* out, unsigned n,
                     cudaStream_t stream) {
  const dim3 g = grid_of(lc), b = block_of(lc);
  switch (split) {
  case 0:
    branches_kernel<0><<<g, b, 0, stream>>>(in, out, n);
    break;
  case 1:
    branches_kernel<1><<<g, b, 0, stream>>>(in, out, n);
    break;
  case 8:
    branches_kernel<8><<<g, b, 0, stream>>>(in, out, n);
    break;
  case 16:
    branches_kernel<16><<<g, b, 0, stream>>>(in, out, n);
    break;
  case 24:
    branches_kernel<24><<<g, b, 0, stream>>>(in, out, n);
    break;
  default:
    throw usage_error("divergence split must be 0, 1, 8, 16 or 24");
  }
  ROOFKIT_CUDA_CHECK(cudaGetLastError());
}

const void* branches_function(int split) {
  switch (split) {
  case 0:
    return symbol<0>();
  case 1:
    return symbol<1>();
  case 8:
    return symbol<8>();
  case 16:
    return symbol<16>();
  case 24:
    return symbol<24>();
  default:
    return nullptr;
  }
}

} // namespace roofkit::kernels

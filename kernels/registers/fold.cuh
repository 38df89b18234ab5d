#pragma once
// The register-cliff kernel body (device code, shared by kernels/registers and the register-cap
// sweep in kernels/cliff): K live accumulators per thread.
namespace roofkit::kernels {

// Rounded intrinsics (no FMA contraction) keep the CPU reference bit-exact.
template <int K>
__device__ __forceinline__ void fold(const float* __restrict__ in, float* __restrict__ out,
                                     unsigned n) {
  const unsigned threads = gridDim.x * blockDim.x;
  float acc[K];
#pragma unroll
  for (int k = 0; k < K; ++k)
    acc[k] = 0.125f * k;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += threads) {
    const float x = in[i];
#pragma unroll
    for (int k = 0; k < K; ++k)
      acc[k] = __fadd_rn(__fmul_rn(acc[k], x), acc[(k + 1) % K]);
  }
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < K; ++k)
    s = __fadd_rn(s, acc[k]);
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < threads)
    out[t] = s;
}

} // namespace roofkit::kernels

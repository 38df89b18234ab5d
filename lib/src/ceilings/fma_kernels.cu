// CUDA-core FMA throughput: FP64, FP32, FP16x2 and BF16x2 loops of independent chains.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "clock_probe.cuh"

namespace roofkit::ceiling_kernels {

namespace {

__device__ __forceinline__ double fma_op(double a, double x, double y) { return fma(a, x, y); }
__device__ __forceinline__ float fma_op(float a, float x, float y) { return fmaf(a, x, y); }
__device__ __forceinline__ __half2 fma_op(__half2 a, __half2 x, __half2 y) {
  return __hfma2(a, x, y);
}
__device__ __forceinline__ __nv_bfloat162 fma_op(__nv_bfloat162 a, __nv_bfloat162 x,
                                                 __nv_bfloat162 y) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  (void)x, (void)y; // BF16 FMA needs sm_80: the chains stay unconverged, the check rejects it
  return a;
#else
  return __hfma2(a, x, y);
#endif
}

// The multiplier and addend: for the packed types, two lanes from two kernel arguments. Made from
// one value (a broadcast), ptxas keeps a single half and reads it with an operand swizzle
// (.H0_H0), which only the FMA pipe's HFMA2 accepts; HFMA2.MMA, the second pipe that doubles the
// packed rate on sm_80 and later, needs whole registers, so the loop would run at half the rate.
template <class T> __device__ T pair(float lo, float) { return lo; }
template <> __device__ __half2 pair<__half2>(float lo, float hi) {
  return __floats2half2_rn(lo, hi);
}
template <> __device__ __nv_bfloat162 pair<__nv_bfloat162>(float lo, float hi) {
  return __floats2bfloat162_rn(lo, hi);
}

template <class T> __device__ T splat(float v);
template <> __device__ double splat<double>(float v) { return v; }
template <> __device__ float splat<float>(float v) { return v; }
template <> __device__ __half2 splat<__half2>(float v) { return __float2half2_rn(v); }
template <> __device__ __nv_bfloat162 splat<__nv_bfloat162>(float v) {
  return __float2bfloat162_rn(v);
}

__device__ double lanes_sum(double v) { return v; }
__device__ double lanes_sum(float v) { return v; }
__device__ double lanes_sum(__half2 v) { return 0.5 * (double(__low2float(v)) + __high2float(v)); }
__device__ double lanes_sum(__nv_bfloat162 v) {
  return 0.5 * (double(__low2float(v)) + __high2float(v));
}

// a = a x + y with x = y = 0.5 (kernel arguments, unknown to the compiler): every chain
// converges to exactly 1 in every format, so the sum of the chains is `chains`. x and y stay
// warp-uniform: made per-thread values, they cost DFMA 8% of its rate on the H100 (register-bank
// pressure). The loop is unrolled 16 times so that its counter and branch take under 1% of the
// issue slots; the work depends on a value read after the start sample, so it cannot begin
// before it.
template <class T, int chains>
__global__ void fma_kernel(double* out, int iterations, float xf, float yf, clock_sample* clk) {
  clock_begin(clk);
  const int t = blockIdx.x * blockDim.x + threadIdx.x + opaque_zero();
  const T x = pair<T>(xf, yf), y = pair<T>(yf, xf);
  T a[chains];
#pragma unroll
  for (int j = 0; j < chains; ++j)
    a[j] = splat<T>(float((t + j) % 13) * 0.25f);
#pragma unroll 16
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int j = 0; j < chains; ++j)
      a[j] = fma_op(a[j], x, y);
  }
  double sum = 0;
#pragma unroll
  for (int j = 0; j < chains; ++j)
    sum += lanes_sum(a[j]);
  out[t] = sum;
  clock_end(clk);
}

template <class T> void launch_chains(int chains, int iterations, double* out, const shape& s) {
  switch (chains) {
  case 8:
    fma_kernel<T, 8><<<s.blocks, s.threads, 0, s.stream>>>(out, iterations, 0.5f, 0.5f, s.clock);
    break;
  case 16:
    fma_kernel<T, 16><<<s.blocks, s.threads, 0, s.stream>>>(out, iterations, 0.5f, 0.5f, s.clock);
    break;
  case 24:
    fma_kernel<T, 24><<<s.blocks, s.threads, 0, s.stream>>>(out, iterations, 0.5f, 0.5f, s.clock);
    break;
  default:
    fma_kernel<T, 32><<<s.blocks, s.threads, 0, s.stream>>>(out, iterations, 0.5f, 0.5f, s.clock);
    break;
  }
}

} // namespace

void fma_loop(fma_type type, int chains, int iterations, double* out, const shape& s) {
  switch (type) {
  case fma_type::fp64:
    launch_chains<double>(chains, iterations, out, s);
    break;
  case fma_type::fp32:
    launch_chains<float>(chains, iterations, out, s);
    break;
  case fma_type::fp16x2:
    launch_chains<__half2>(chains, iterations, out, s);
    break;
  case fma_type::bf16x2:
    launch_chains<__nv_bfloat162>(chains, iterations, out, s);
    break;
  }
}

} // namespace roofkit::ceiling_kernels

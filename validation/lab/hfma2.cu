// Experiment: which loop shapes make ptxas issue HFMA2.MMA, and what clock the FFMA loop runs at.
// V0-V5 build x and y by broadcasting one value to both lanes (ptxas keeps one half and swizzles
// the operand: HFMA2 only); V6 and the BF16 kernel build them from two values (whole registers).
#include <algorithm>
#include <cstdio>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <vector>
struct clk {
  unsigned long long c0, c1, t0, t1;
};
__device__ unsigned long long gt() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__device__ void cb(clk* c) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    c->t0 = gt();
    c->c0 = clock64();
  }
}
__device__ void ce(clk* c) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    c->c1 = clock64();
    c->t1 = gt();
  }
}

template <int V, int C> __global__ void kh(float* out, int n, float xf, float yf, clk* c) {
  cb(c);
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const float z = float(t >> 30);
  __half2 a[C], x[C], y[C];
#pragma unroll
  for (int j = 0; j < C; ++j) {
    a[j] = __float2half2_rn(float((t + j) % 13) * 0.25f);
    x[j] = V == 6 ? __floats2half2_rn(xf, yf) : __float2half2_rn(xf + z * j);
    y[j] = V == 6 ? __floats2half2_rn(yf, xf) : __float2half2_rn(yf + z * (j + 1));
  }
#pragma unroll 16
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int j = 0; j < C; ++j) {
      if (V == 0)
        a[j] = __hfma2(a[j], x[0], y[0]);
      if (V == 1)
        a[j] = __hfma2(a[j], x[j], y[j]);
      if (V == 2)
        a[j] = __hfma2(x[0], a[j], y[0]);
      if (V == 3)
        a[j] = __hfma2(a[j], a[j], y[0]);
      if (V == 4)
        a[j] = __hadd2(__hmul2(a[j], x[0]), y[0]);
      if (V == 5)
        a[j] = __hfma2(a[j], x[j % 2], y[j % 2]);
      if (V == 6)
        a[j] = __hfma2(a[j], x[0], y[0]);
    }
  }
  float s = 0;
#pragma unroll
  for (int j = 0; j < C; ++j)
    s += __low2float(a[j]) + __high2float(a[j]);
  out[t] = s;
  ce(c);
}
template <int C> __global__ void kb(float* out, int n, float xf, float yf, clk* c) {
  cb(c);
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  __nv_bfloat162 a[C];
  const __nv_bfloat162 x = __floats2bfloat162_rn(xf, yf), y = __floats2bfloat162_rn(yf, xf);
#pragma unroll
  for (int j = 0; j < C; ++j)
    a[j] = __float2bfloat162_rn(float((t + j) % 13) * 0.25f);
#pragma unroll 16
  for (int i = 0; i < n; ++i)
#pragma unroll
    for (int j = 0; j < C; ++j)
      a[j] = __hfma2(a[j], x, y);
  float s = 0;
#pragma unroll
  for (int j = 0; j < C; ++j)
    s += __low2float(a[j]) + __high2float(a[j]);
  out[t] = s;
  ce(c);
}
template <int C> __global__ void kf(float* out, int n, float xf, float yf, clk* c) {
  cb(c);
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const float z = float(t >> 30);
  float a[C];
  const float x = xf + z, y = yf + z;
#pragma unroll
  for (int j = 0; j < C; ++j)
    a[j] = float((t + j) % 13) * 0.25f;
#pragma unroll 16
  for (int i = 0; i < n; ++i)
#pragma unroll
    for (int j = 0; j < C; ++j)
      a[j] = fmaf(a[j], x, y);
  float s = 0;
#pragma unroll
  for (int j = 0; j < C; ++j)
    s += a[j];
  out[t] = s;
  ce(c);
}
template <class K> void run(const char* name, K k, double flop_per_iter_thread, int n) {
  int sms;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const int blocks = sms * 8, threads = 256;
  float* out;
  clk* c;
  cudaMalloc(&out, sizeof(float) * blocks * threads);
  cudaMallocManaged(&c, sizeof(clk));
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  for (int w = 0; w < 3; ++w)
    k<<<blocks, threads>>>(out, n, 0.5f, 0.5f, c);
  std::vector<float> ms;
  std::vector<double> mhz;
  for (int r = 0; r < 9; ++r) {
    cudaEventRecord(e0);
    k<<<blocks, threads>>>(out, n, 0.5f, 0.5f, c);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float m;
    cudaEventElapsedTime(&m, e0, e1);
    ms.push_back(m);
    mhz.push_back(double(c->c1 - c->c0) / double(c->t1 - c->t0) * 1e3);
  }
  std::sort(ms.begin(), ms.end());
  std::sort(mhz.begin(), mhz.end());
  const double flops = flop_per_iter_thread * n * double(blocks) * threads;
  printf("%-28s %8.3f ms %8.2f TFLOP/s probe %7.1f MHz (min %7.1f max %7.1f) err=%s\n", name, ms[4],
         flops / (ms[4] * 1e-3) / 1e12, mhz[4], mhz[0], mhz[8],
         cudaGetErrorString(cudaGetLastError()));
  cudaFree(out);
  cudaFree(c);
}
int main(int argc, char** argv) {
  const int secs = argc > 1 ? atoi(argv[1]) : 0;
  run("h V0 16 shared x,y", kh<0, 16>, 2 * 2 * 16, 8192);
  run("h V1 16 per-chain x,y", kh<1, 16>, 2 * 2 * 16, 8192);
  run("h V2 16 swapped", kh<2, 16>, 2 * 2 * 16, 8192);
  run("h V3 16 a*a+y", kh<3, 16>, 2 * 2 * 16, 8192);
  run("h V4 16 mul+add", kh<4, 16>, 2 * 2 * 16, 8192);
  run("h V5 16 two pairs", kh<5, 16>, 2 * 2 * 16, 8192);
  run("h V1 32 per-chain", kh<1, 32>, 2 * 2 * 32, 4096);
  run("h V6 8 two-lane x,y", kh<6, 8>, 2 * 2 * 8, 16384);
  run("h V6 16 two-lane x,y", kh<6, 16>, 2 * 2 * 16, 8192);
  run("b 16 two-lane x,y", kb<16>, 2 * 2 * 16, 8192);
  run("f 16", kf<16>, 2 * 16, 16384);
  run("f 24", kf<24>, 2 * 24, 16384);
  for (int s = 0; s < secs; ++s)
    run("f 24 sustained", kf<24>, 2 * 24, 65536);
}

// A test application for `roofline-cuda profile`: launches many small kernels (default 10,000)
// and prints its resident memory after the first 1,000 launches and at the end, so that a
// profile with and without --launch-count can show memory stays flat. An optional second
// argument allocates and writes that many MiB of device memory the kernels never touch (how a
// profiler's save and restore of device memory shows in the kernels' DRAM counts).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "resident_memory.hpp"

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "many_kernels: %s failed: %s\n", #call, cudaGetErrorString(e_));        \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

__global__ void axpy_small(float a, const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

int main(int argc, char** argv) {
  const long launches = argc > 1 ? std::atol(argv[1]) : 10000;
  const long ballast_mib = argc > 2 ? std::atol(argv[2]) : 0;
  const int n = 4096;
  if (launches < 1 || ballast_mib < 0) {
    std::fprintf(stderr, "usage: many_kernels [launches >= 1] [untouched MiB >= 0]\n");
    return 2;
  }
  void* ballast = nullptr;
  if (ballast_mib > 0) {
    CHECK(cudaMalloc(&ballast, static_cast<std::size_t>(ballast_mib) << 20));
    CHECK(cudaMemset(ballast, 1, static_cast<std::size_t>(ballast_mib) << 20));
  }
  std::vector<float> hx(n), hy(n);
  for (int i = 0; i < n; ++i) {
    hx[i] = static_cast<float>(i % 7);
    hy[i] = 1.0f;
  }
  float *x = nullptr, *y = nullptr;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  CHECK(cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(y, hy.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  long rss_1000 = -1;
  for (long i = 0; i < launches; ++i) {
    axpy_small<<<n / 256, 256>>>(0.5f, x, y, n);
    CHECK(cudaGetLastError());
    if (i + 1 == 1000) {
      CHECK(cudaDeviceSynchronize());
      rss_1000 = resident_kib();
    }
  }
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hy.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost));
  // y = 1 + launches * 0.5 * x, exact in FP32 for these small values.
  for (int i = 0; i < n; ++i) {
    const float want = 1.0f + static_cast<float>(launches) * 0.5f * hx[i];
    if (hy[i] != want) {
      std::fprintf(stderr, "many_kernels: y[%d] = %g, expected %g\n", i, hy[i], want);
      return 1;
    }
  }
  std::printf("many_kernels: %ld launches verified; VmRSS after 1000: %ld KiB, at end: %ld KiB\n",
              launches, rss_1000, resident_kib());
  CHECK(cudaFree(ballast));
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  return 0;
}

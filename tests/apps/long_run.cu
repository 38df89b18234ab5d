// A test application for long profiled runs: launches tiny kernels (default 100,000) in a loop of
// three shapes, as a training loop repeats its kernels every step, and prints its resident memory
// after 10,000 launches and at the end. With ROOFKIT_LONG_RUN_RSS=path it also writes those two
// figures there (the long-run validation script reads them).
#define APP_NAME "long_run"
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "app_check.cuh"
#include "resident_memory.hpp"

__global__ void tiny_add(float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += 1.0f;
}

__global__ void tiny_scale(float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] *= 1.0f;
}

int main(int argc, char** argv) {
  const long launches = argc > 1 ? std::atol(argv[1]) : 100000;
  if (launches < 1) {
    std::fprintf(stderr, "usage: long_run [launches >= 1]\n");
    return 2;
  }
  const int n = 1024;
  float* y = nullptr;
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  CHECK(cudaMemset(y, 0, n * sizeof(float)));
  long rss_10k = -1;
  long adds = 0;
  for (long i = 0; i < launches; ++i) {
    switch (i % 3) { // three shapes: add on 4 blocks, add on 8 half blocks, scale on 4 blocks
    case 0:
      tiny_add<<<n / 256, 256>>>(y, n);
      ++adds;
      break;
    case 1:
      tiny_add<<<n / 128, 128>>>(y, n);
      ++adds;
      break;
    default:
      tiny_scale<<<n / 256, 256>>>(y, n);
    }
    CHECK(cudaGetLastError());
    if (i + 1 == 10000) {
      CHECK(cudaDeviceSynchronize());
      rss_10k = resident_kib();
    }
  }
  CHECK(cudaDeviceSynchronize());
  float h = 0;
  CHECK(cudaMemcpy(&h, y, sizeof h, cudaMemcpyDeviceToHost));
  if (h != static_cast<float>(adds)) {
    std::fprintf(stderr, "long_run: y[0] = %g, expected %ld\n", h, adds);
    return 1;
  }
  const long rss_end = resident_kib();
  std::printf("long_run: %ld launches verified; VmRSS after 10000: %ld KiB, at end: %ld KiB\n",
              launches, rss_10k, rss_end);
  if (const char* path = std::getenv("ROOFKIT_LONG_RUN_RSS"))
    if (FILE* f = std::fopen(path, "w")) {
      std::fprintf(f, "%ld %ld\n", rss_10k, rss_end);
      std::fclose(f);
    }
  CHECK(cudaFree(y));
  return 0;
}

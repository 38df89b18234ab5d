// An in-place kernel (x = 2x + 1) over buffers of several sizes, three launches each, after a
// primer of two read sums over 256 MiB: the simplest kernel whose output may stay partly in the
// L2 at its end. For comparing DRAM writes under ncu and roofline-cuda profile, size by size
// (scripts/lab/inplace-sweep.sh). Arguments: buffer sizes in MiB.
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#define APP_NAME "inplace"
#include "../../tests/apps/app_check.cuh"

__global__ void primer_sum(const float* x, std::size_t n, float* out) {
  float s = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    s += x[i];
  if (s == -1.0f) // never true for the data: keeps the loads without writing
    *out = s;
}

__global__ void fill(float* x, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i < n)
    x[i] = float(i % 977) * 0.25f;
}

__global__ void inplace(float* x, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i < n)
    x[i] = 2.0f * x[i] + 1.0f;
}

int main(int argc, char** argv) {
  const std::size_t primer_n = std::size_t(64) << 20;
  float* p = nullptr;
  float* out = nullptr;
  CHECK(cudaMalloc(&p, primer_n * sizeof(float)));
  CHECK(cudaMalloc(&out, sizeof(float)));
  fill<<<unsigned(primer_n / 256), 256>>>(p, primer_n);
  for (int k = 0; k < 2; ++k)
    primer_sum<<<132 * 8, 256>>>(p, primer_n, out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(p));
  for (int a = 1; a < argc; ++a) {
    const std::size_t n = std::size_t(std::atoi(argv[a])) << 18; // MiB of floats
    float* x = nullptr;
    CHECK(cudaMalloc(&x, n * sizeof(float)));
    fill<<<unsigned((n + 255) / 256), 256>>>(x, n);
    for (int k = 0; k < 3; ++k)
      inplace<<<unsigned((n + 255) / 256), 256>>>(x, n);
    CHECK(cudaGetLastError());
    float last = 0;
    const std::size_t i = n - 1;
    CHECK(cudaMemcpy(&last, x + i, sizeof(float), cudaMemcpyDeviceToHost));
    const float want = ((float(i % 977) * 0.25f * 2 + 1) * 2 + 1) * 2 + 1;
    if (last != want) {
      std::fprintf(stderr, APP_NAME ": %s MiB: x[%zu] = %g, expected %g\n", argv[a], i, last, want);
      return 1;
    }
    CHECK(cudaFree(x));
  }
  std::printf(APP_NAME ": results correct\n");
  return 0;
}

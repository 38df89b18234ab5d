// A test application for `roofline-cuda profile`: one that holds most of the device memory when
// its kernel runs, as a training script does. A first small kernel, then one allocation of a
// fraction of the free device memory (argument, default 0.8), then an in-place kernel launched
// twice on its first 256 MiB. The profiler's checkpoint must save and restore all of it, and its
// flush buffer must already exist. Checks the kernel's results and that the rest of the buffer
// is untouched; prints "big_memory: ... results correct" and exits 0 when they are.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#define APP_NAME "big_memory"
#include "app_check.cuh"

__global__ void touch(float* x) { x[threadIdx.x] = float(threadIdx.x); }

__global__ void add_one_in_place(float* x, std::size_t count) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i < count)
    x[i] += 1.0f;
}

int main(int argc, char** argv) {
  const double fraction = argc > 1 ? std::atof(argv[1]) : 0.8;
  if (!(fraction > 0.0 && fraction < 1.0)) {
    std::fprintf(stderr, "big_memory: fraction %s is not in (0, 1)\n", argc > 1 ? argv[1] : "");
    return 2;
  }
  float* small = nullptr;
  CHECK(cudaMalloc(&small, 256 * sizeof(float)));
  touch<<<1, 256>>>(small);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::size_t free_bytes = 0, total_bytes = 0;
  CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t bytes = std::size_t(fraction * double(free_bytes)) & ~std::size_t(4095);
  const std::size_t worked = std::size_t(64) << 20; // floats: 256 MiB
  if (bytes < 2 * worked * sizeof(float)) {
    std::fprintf(stderr, "big_memory: only %zu bytes free\n", free_bytes);
    return 1;
  }
  float* big = nullptr;
  CHECK(cudaMalloc(&big, bytes));
  CHECK(cudaMemset(big, 0, bytes));
  for (int k = 0; k < 2; ++k)
    add_one_in_place<<<unsigned(worked / 256), 256>>>(big, worked);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  bool ok = true;
  std::vector<float> head(worked), tail(1 << 20);
  CHECK(cudaMemcpy(head.data(), big, worked * sizeof(float), cudaMemcpyDeviceToHost));
  const std::size_t count = bytes / sizeof(float);
  CHECK(cudaMemcpy(tail.data(), big + (count - tail.size()), tail.size() * sizeof(float),
                   cudaMemcpyDeviceToHost));
  for (std::size_t i = 0; i < head.size() && ok; ++i)
    if (head[i] != 2.0f) {
      std::fprintf(stderr, "big_memory: x[%zu] = %g, expected 2\n", i, head[i]);
      ok = false;
    }
  for (std::size_t i = 0; i < tail.size() && ok; ++i)
    if (tail[i] != 0.0f) {
      std::fprintf(stderr, "big_memory: tail[%zu] = %g, expected 0\n", i, tail[i]);
      ok = false;
    }
  CHECK(cudaFree(big));
  CHECK(cudaFree(small));
  std::printf("big_memory: %.1f GiB of %.1f GiB held, %s\n", double(bytes) / (1 << 30),
              double(total_bytes) / (1 << 30), ok ? "results correct" : "WRONG RESULTS");
  return ok ? 0 : 1;
}

// An in-place kernel (x = 2x + 1) over buffers of several sizes, three launches each, after a
// primer of two read sums over 256 MiB: the simplest kernel whose output may stay partly in the
// L2 at its end. For comparing DRAM writes under ncu and roofline-cuda profile, size by size
// (validation/lab/inplace-sweep.sh). Arguments: buffer sizes in MiB. With INPLACE_FLUSH=1 in the
// environment the application empties the L2 itself before every in-place launch: a read sweep
// over 200 MiB of zeros, then discard.global.L2 of every line of it (as roofkit's l2_flusher);
// with INPLACE_FLUSH=2 the read sweep alone, which leaves the L2 full of clean lines; with
// INPLACE_FLUSH=3 the kernel driver's own write-back and invalidate of the whole L2 (roofkit's
// driver_l2_flush, so the program links the library: validation/lab/inplace-build.sh), whose
// median time is printed at the end.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#define APP_NAME "inplace"
#include "../../lib/src/profiler/driver_l2_flush.hpp"
#include "../../tests/apps/app_check.cuh"

__global__ void primer_sum(const float* x, std::size_t n, float* out) {
  float s = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    s += x[i];
  if (s == -1.0f) // never true for the data: keeps the loads without writing
    *out = s;
}

__global__ void flush_read(const float4* buf, std::size_t n, float* out) {
  float s = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const float4 v = buf[i];
    s += v.x + v.y + v.z + v.w;
  }
  if (s == -1.0f) // the buffer is zeros
    *out = s;
}

__global__ void flush_discard(char* buf, std::size_t lines) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < lines;
       i += std::size_t(gridDim.x) * blockDim.x)
    asm volatile("discard.global.L2 [%0], 128;" : : "l"(buf + i * 128) : "memory");
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
  const char* mode = std::getenv("INPLACE_FLUSH");
  const int flush = mode ? std::atoi(mode) : 0;
  const std::size_t flush_bytes = std::size_t(200) << 20;
  char* flush_buf = nullptr;
  std::unique_ptr<roofkit::detail::driver_l2_flush> rm;
  std::vector<double> rm_us;
  if (flush == 3) {
    CHECK(cudaFree(nullptr)); // the context first: it attaches the GPU
    std::string why;
    rm = roofkit::detail::driver_l2_flush::open_device(0, why);
    if (!rm) {
      std::fprintf(stderr, APP_NAME ": no driver flush: %s\n", why.c_str());
      return 2;
    }
  } else if (flush) {
    CHECK(cudaMalloc(&flush_buf, flush_bytes));
    CHECK(cudaMemset(flush_buf, 0, flush_bytes));
  }
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
    for (int k = 0; k < 3; ++k) {
      if (rm) {
        CHECK(cudaDeviceSynchronize());
        const auto t0 = std::chrono::steady_clock::now();
        rm->flush();
        rm_us.push_back(
            std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0)
                .count());
      } else if (flush) {
        flush_read<<<132 * 8, 256>>>(reinterpret_cast<const float4*>(flush_buf), flush_bytes / 16,
                                     out);
        if (flush == 1)
          flush_discard<<<132 * 8, 256>>>(flush_buf, flush_bytes / 128);
        CHECK(cudaDeviceSynchronize());
      }
      inplace<<<unsigned((n + 255) / 256), 256>>>(x, n);
    }
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
  if (!rm_us.empty()) {
    std::sort(rm_us.begin(), rm_us.end());
    std::printf(APP_NAME ": driver L2 flush: median %.1f us over %zu\n", rm_us[rm_us.size() / 2],
                rm_us.size());
  }
  std::printf(APP_NAME ": results correct\n");
  return 0;
}

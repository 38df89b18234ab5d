// A test application for `roofline-cuda profile`: kernels that write memory the device does not
// own. In-place kernels, each launched twice, on managed memory (cudaMallocManaged), on mapped
// pinned host memory (cudaHostAlloc with cudaHostAllocMapped) and, where the device can access
// pageable host memory (HMM, ATS), on plain malloc'd memory. A profiler that replays a launch must
// undo what each pass wrote, or the application sees its kernels run more than twice. Prints one
// word per kind and "results correct" when every kind is right; exits 0 only then.
#include <cstdio>
#include <cstdlib>
#include <string>

#include <cuda_runtime.h>

#define APP_NAME "managed_memory"
#include "app_check.cuh"

__global__ void add_one_managed(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1.0f;
}

__global__ void add_one_mapped(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1.0f;
}

__global__ void add_one_pageable(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1.0f;
}

// Fills host-visible `x`, runs `kernel` twice on `device_x` (the same memory as the device sees
// it) and checks the result on the host; adds "KIND ok" or "KIND WRONG" to `line`.
static bool run_kind(const char* kind, void (*kernel)(float*, int), float* x, float* device_x,
                     int n, std::string& line) {
  for (int i = 0; i < n; ++i)
    x[i] = float(i % 100);
  for (int k = 0; k < 2; ++k)
    kernel<<<(n + 255) / 256, 256>>>(device_x, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  bool ok = true;
  for (int i = 0; i < n && ok; ++i)
    if (x[i] != float(i % 100) + 2.0f) {
      std::fprintf(stderr, APP_NAME ": %s x[%d] = %g, expected %g\n", kind, i, x[i],
                   float(i % 100) + 2.0f);
      ok = false;
    }
  line += std::string(line.empty() ? "" : ", ") + kind + (ok ? " ok" : " WRONG");
  return ok;
}

int main() {
  const int n = 1 << 22;
  std::string line;
  bool ok = true;

  float* m = nullptr;
  CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  ok = run_kind("managed", add_one_managed, m, m, n, line) && ok;
  CHECK(cudaFree(m));

  float* h = nullptr;
  float* d = nullptr;
  CHECK(cudaHostAlloc(&h, n * sizeof(float), cudaHostAllocMapped));
  CHECK(cudaHostGetDevicePointer(&d, h, 0));
  ok = run_kind("mapped", add_one_mapped, h, d, n, line) && ok;
  CHECK(cudaFreeHost(h));

  int device = 0;
  int pageable = 0;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, device));
  if (pageable) {
    auto* p = static_cast<float*>(std::malloc(n * sizeof(float)));
    ok = run_kind("pageable", add_one_pageable, p, p, n, line) && ok;
    std::free(p);
  } else {
    line += ", pageable not accessible";
  }
  std::printf(APP_NAME ": %s: results %s\n", line.c_str(), ok ? "correct" : "WRONG");
  return ok ? 0 : 1;
}

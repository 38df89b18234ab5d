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

static bool check(const char* kind, const float* x, int n) {
  for (int i = 0; i < n; ++i)
    if (x[i] != float(i % 100) + 2.0f) {
      std::fprintf(stderr, APP_NAME ": %s x[%d] = %g, expected %g\n", kind, i, x[i],
                   float(i % 100) + 2.0f);
      return false;
    }
  return true;
}

static void init(float* x, int n) {
  for (int i = 0; i < n; ++i)
    x[i] = float(i % 100);
}

int main() {
  const int n = 1 << 22;
  const unsigned blocks = (n + 255) / 256;
  std::string line;
  bool ok = true;

  float* m = nullptr;
  CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  init(m, n);
  for (int k = 0; k < 2; ++k)
    add_one_managed<<<blocks, 256>>>(m, n);
  CHECK(cudaDeviceSynchronize());
  const bool managed_ok = check("managed", m, n);
  line += std::string("managed ") + (managed_ok ? "ok" : "WRONG");
  ok = ok && managed_ok;
  CHECK(cudaFree(m));

  float* h = nullptr;
  float* d = nullptr;
  CHECK(cudaHostAlloc(&h, n * sizeof(float), cudaHostAllocMapped));
  CHECK(cudaHostGetDevicePointer(&d, h, 0));
  init(h, n);
  for (int k = 0; k < 2; ++k)
    add_one_mapped<<<blocks, 256>>>(d, n);
  CHECK(cudaDeviceSynchronize());
  const bool mapped_ok = check("mapped", h, n);
  line += std::string(", mapped ") + (mapped_ok ? "ok" : "WRONG");
  ok = ok && mapped_ok;
  CHECK(cudaFreeHost(h));

  int device = 0;
  int pageable = 0;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, device));
  if (pageable) {
    auto* p = static_cast<float*>(std::malloc(n * sizeof(float)));
    init(p, n);
    for (int k = 0; k < 2; ++k)
      add_one_pageable<<<blocks, 256>>>(p, n);
    CHECK(cudaDeviceSynchronize());
    const bool pageable_ok = check("pageable", p, n);
    line += std::string(", pageable ") + (pageable_ok ? "ok" : "WRONG");
    ok = ok && pageable_ok;
    std::free(p);
  } else {
    line += ", pageable not accessible";
  }
  std::printf(APP_NAME ": %s: results %s\n", line.c_str(), ok ? "correct" : "WRONG");
  return ok ? 0 : 1;
}

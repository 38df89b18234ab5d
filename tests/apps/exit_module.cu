// The library that exit_unload.cu loads with dlopen: one kernel, launched through a C function.
#include <cuda_runtime.h>

__global__ void add_one_kernel(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1.0f;
}

extern "C" int exit_module_add_one(float* x, int n) {
  add_one_kernel<<<(n + 255) / 256, 256>>>(x, n);
  return static_cast<int>(cudaGetLastError());
}

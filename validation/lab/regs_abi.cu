// Which kernels does the hardware run with more registers than the compiler wrote? One kernel
// per kind of call out of the kernel (none, printf, assert, malloc, a non-inlined device
// function), each launched once; run under regs_activity.cpp (validation/lab/regs.sh), which
// prints CUPTI's registers per thread beside CU_FUNC_ATTRIBUTE_NUM_REGS.
#include <cassert>
#include <cstdio>

#include <cuda_runtime.h>

__global__ void plain(float* x) { x[threadIdx.x] = x[threadIdx.x] * 2.0f + 1.0f; }

__global__ void with_printf(float* x) {
  if (x[threadIdx.x] < -1e30f)
    printf("never %f\n", x[threadIdx.x]);
  x[threadIdx.x] += 1.0f;
}

__global__ void with_assert(float* x) {
  assert(x[threadIdx.x] > -1e30f);
  x[threadIdx.x] += 1.0f;
}

__global__ void with_malloc(float* x) {
  if (x[threadIdx.x] < -1e30f) {
    float* p = static_cast<float*>(malloc(16));
    p[0] = 1.0f;
    x[0] = p[0];
    free(p);
  }
  x[threadIdx.x] += 1.0f;
}

__noinline__ __device__ float called(float v) { return v * 3.0f + 1.0f; }

__global__ void with_call(float* x) { x[threadIdx.x] = called(x[threadIdx.x]); }

int main() {
  float* x = nullptr;
  if (cudaMalloc(&x, 1024 * sizeof(float)) != cudaSuccess)
    return 1;
  cudaMemset(x, 0, 1024 * sizeof(float));
  plain<<<1, 256>>>(x);
  with_printf<<<1, 256>>>(x);
  with_assert<<<1, 256>>>(x);
  with_malloc<<<1, 256>>>(x);
  with_call<<<1, 256>>>(x);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("regs_abi: %s\n", cudaGetErrorString(e));
  cudaFree(x);
  return e == cudaSuccess ? 0 : 1;
}

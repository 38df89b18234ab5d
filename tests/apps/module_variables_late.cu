// The second module of module_variables.cu: a kernel that counts its blocks in a __managed__
// variable and one in a __device__ variable, loaded lazily at its first launch.
#include <cuda_runtime.h>

#define APP_NAME "module_variables"
#include "app_check.cuh"

__device__ unsigned int late_blocks;
__managed__ unsigned int late_managed_blocks;

__global__ void late_count_kernel(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) {
    atomicAdd(&late_blocks, 1u);
    atomicAdd(&late_managed_blocks, 1u);
  }
  if (i < n)
    x[i] += 1.0f;
}

void late_count(float* x, int n, int blocks) { late_count_kernel<<<blocks, 256>>>(x, n); }

// The count of the __device__ variable, or 0 when the two variables disagree.
unsigned late_counted() {
  unsigned counted = 0;
  CHECK(cudaMemcpyFromSymbol(&counted, late_blocks, sizeof counted));
  CHECK(cudaDeviceSynchronize());
  return counted == late_managed_blocks ? counted : 0;
}

// A test application for `roofline-cuda profile`: kernels that count their launches in module
// variables (__device__ and __managed__), one of them in a second module (module_variables_late.cu,
// its own module without relocatable device code) whose first launch comes right after a launch
// of this one, so that with lazy loading the module is loaded while a replay batch is open. A
// replay that does not put the variables back counts each pass as well. Then, inside the same
// batch, a buffer allocated, cleared with an asynchronous memset and accumulated into by a kernel:
// the allocation and the memset keep the batch open and the replays must leave the sum as one
// launch makes it. Then a device-to-device copy of that sum into a third buffer, accumulated into
// once more: the copy keeps the batch open too, and each pass must copy again before the kernel
// adds to it. Prints the counts and "module_variables: all results correct" and exits 0 when every
// count and all three buffers are right.
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#define APP_NAME "module_variables"
#include "app_check.cuh"

void late_count(float* x, int n, int blocks);
unsigned late_counted();

__device__ unsigned int early_launches;

__global__ void accumulate(float* y, const float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += x[i];
}

__global__ void early_count(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    atomicAdd(&early_launches, 1u);
  if (i < n)
    x[i] = x[i] * 0.5f + 1.0f;
}

int main() {
  const int n = 1 << 20;
  const int blocks = n / 256;
  float* x = nullptr;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMemset(x, 0, n * sizeof(float)));
  for (int k = 0; k < 2; ++k) {
    early_count<<<blocks, 256>>>(x, n);
    late_count(x, n, blocks);
  }
  float* y = nullptr;
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  CHECK(cudaMemsetAsync(y, 0, n * sizeof(float)));
  accumulate<<<blocks, 256>>>(y, x, n);
  accumulate<<<blocks, 256>>>(y, x, n);
  float* z = nullptr;
  CHECK(cudaMalloc(&z, n * sizeof(float)));
  CHECK(cudaMemcpyAsync(z, y, n * sizeof(float), cudaMemcpyDeviceToDevice));
  accumulate<<<blocks, 256>>>(z, x, n);
  CHECK(cudaGetLastError());
  unsigned early = 0;
  CHECK(cudaMemcpyFromSymbol(&early, early_launches, sizeof early));
  const unsigned late = late_counted();
  std::vector<float> out(n);
  std::vector<float> sum(n);
  CHECK(cudaMemcpy(out.data(), x, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(sum.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost));
  std::vector<float> copied(n);
  CHECK(cudaMemcpy(copied.data(), z, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  CHECK(cudaFree(z));
  const unsigned want = 2u * static_cast<unsigned>(blocks);
  // x: 0 -> 1 -> 2 (late adds one) -> 2 -> 3.
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += (out[i] != 3.0f) + (sum[i] != 6.0f) + (copied[i] != 9.0f);
  std::printf(APP_NAME ": counted %u (this module), %u (the late module), expected %u each; %d "
                       "wrong values\n",
              early, late, want, wrong);
  if (early != want || late != want || wrong != 0)
    return 1;
  std::printf(APP_NAME ": all results correct\n");
  return 0;
}

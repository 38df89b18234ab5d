// The example suite's one kernel.
#include "saxpy_kernel.hpp"

namespace example {

namespace {

__global__ void saxpy(float a, const float* x, const float* y, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a * x[i] + y[i];
}

} // namespace

void launch_saxpy(unsigned grid, unsigned block, float a, const float* x, const float* y,
                  float* out, int n, cudaStream_t stream) {
  saxpy<<<grid, block, 0, stream>>>(a, x, y, out, n);
}

const void* saxpy_function() { return reinterpret_cast<const void*>(&saxpy); }

} // namespace example

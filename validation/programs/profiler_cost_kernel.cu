// The kernel that roofkit-profiler-cost profiles: y = 2 x + y.
#include <cuda_runtime_api.h>

namespace {
__global__ void scale_add(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 2.0f * x[i] + y[i];
}

} // namespace

void launch_scale_add(const float* x, float* y, int n);

void launch_scale_add(const float* x, float* y, int n) {
  scale_add<<<(n + 255) / 256, 256>>>(x, y, n);
}

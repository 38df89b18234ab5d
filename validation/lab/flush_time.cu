// How long roofkit::l2_flusher::flush() takes on its own (no profiler): 50 flushes, each between
// a pair of events, after 5 untimed ones; prints the flusher's launches and the median in us.
// The two-kernel path is chosen with ROOFKIT_LAB_FLUSH_TWO_KERNELS=1 (a lab knob of l2_flusher).
#include <algorithm>
#include <cstdio>
#include <vector>

#include <cuda_runtime_api.h>

#include "roofkit/timing.hpp"

int main() {
  roofkit::l2_flusher f(0);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  for (int i = 0; i < 5; ++i)
    f.flush();
  std::vector<float> ms;
  for (int i = 0; i < 50; ++i) {
    cudaEventRecord(a);
    f.flush();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float t = 0;
    cudaEventElapsedTime(&t, a, b);
    ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("{\"launches\": %d, \"bytes\": %zu, \"median_us\": %.1f, \"min_us\": %.1f, "
              "\"max_us\": %.1f, \"error\": \"%s\"}\n",
              f.launches(), f.bytes(), ms[25] * 1e3, ms.front() * 1e3, ms.back() * 1e3,
              cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}

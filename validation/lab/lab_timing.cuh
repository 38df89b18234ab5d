// Shared by the lab's standalone CUDA programs (built by nvcc alone, not by CMake): the error
// check and the median of event-timed launches.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "%s failed: %s (%s:%d)\n", #call, cudaGetErrorString(e_), __FILE__,     \
                   __LINE__);                                                                      \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

// The median time of `reps` launches, each between two events, after three untimed ones.
template <class Launch> float median_ms(Launch launch, int reps) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  for (int i = 0; i < 3; ++i)
    launch();
  std::vector<float> ms;
  for (int i = 0; i < reps; ++i) {
    CHECK(cudaEventRecord(a));
    launch();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float t = 0;
    CHECK(cudaEventElapsedTime(&t, a, b));
    ms.push_back(t);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

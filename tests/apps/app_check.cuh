#pragma once
// The test applications' check of a CUDA runtime call: on failure it names the application
// (APP_NAME, defined before this header is included), the call and the error, and exits 1.
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, APP_NAME ": %s failed: %s\n", #call, cudaGetErrorString(e_));           \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

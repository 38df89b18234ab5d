// Kernels for tests/cpu/test_device_heap_users.cpp, compiled to a cubin and a fat binary at
// build time: which of them use the device heap, and which variables they can write, is known by
// construction.
#include <cstdio>

__device__ __noinline__ void release(void* p) { free(p); }

__device__ __noinline__ void through_helper(float** x) { release(x[0]); }

extern "C" __global__ void takes_memory(float* x) {
  float* p = static_cast<float*>(malloc(16));
  p[0] = x[0];
  x[1] = p[0];
  free(p);
}

extern "C" __global__ void frees_through_two_calls(float** x) { through_helper(x); }

extern "C" __global__ void aligned(float* x) {
  x[0] = reinterpret_cast<unsigned long long>(__nv_aligned_device_malloc(64, 32)) != 0;
}

extern "C" __global__ void prints_only(float* x) { printf("%f\n", x[0]); }

extern "C" __global__ void plain(float* x) { x[0] += 1.0f; }

// Variables: four in memory that kernels can write (a const one included), and constant memory.
__device__ unsigned launches_seen;
__device__ float weights[100] = {1.0f, 2.0f};
namespace counters {
__managed__ int shared_with_host;
}
__constant__ float scale[4];
__device__ const int answer = 42;

extern "C" __global__ void counts(float* x) {
  atomicAdd(&launches_seen, 1u);
  counters::shared_with_host += 1;
  printf("%d\n", answer);
  x[0] = weights[threadIdx.x] * scale[0] + answer;
}

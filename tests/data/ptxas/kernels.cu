// Kernels whose `nvcc -Xptxas -v` output is committed beside this file (see README.md): a range
// of register counts, static shared memory and barrier counts for the --ptxas parser tests.
#include <cstdint>

// Register pressure grows with N: N accumulators stay live across the loop.
template <int N>
__global__ void __launch_bounds__(256) accumulate(const float* __restrict__ in, float* out, int n) {
  float acc[N];
#pragma unroll
  for (int i = 0; i < N; ++i)
    acc[i] = in[threadIdx.x + i];
  for (int k = 0; k < n; ++k) {
#pragma unroll
    for (int i = 0; i < N; ++i)
      acc[i] = acc[i] * acc[(i + 1) % N] + in[k];
  }
  float sum = 0;
#pragma unroll
  for (int i = 0; i < N; ++i)
    sum += acc[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}
template __global__ void accumulate<4>(const float* __restrict__, float*, int);
template __global__ void accumulate<32>(const float* __restrict__, float*, int);

// Static shared memory: a tile transpose with a 32 x 33 float tile per block, and 40 KB.
template <int TILE> __global__ void transpose(const float* in, float* out, int width) {
  __shared__ float tile[TILE][TILE + 1];
  const int x = blockIdx.x * TILE + threadIdx.x;
  const int y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  __syncthreads();
  out[x * width + y] = tile[threadIdx.x][threadIdx.y];
}
template __global__ void transpose<32>(const float*, float*, int);
template __global__ void transpose<100>(const float*, float*, int);

// Two named barriers (producer / consumer halves).
__global__ void named_barriers(int* data) {
  __shared__ int buffer[256];
  if (threadIdx.x < 128) {
    buffer[threadIdx.x] = data[threadIdx.x];
    asm volatile("bar.sync 1, 256;");
  } else {
    asm volatile("bar.sync 1, 256;");
    data[threadIdx.x] = buffer[threadIdx.x - 128];
  }
  asm volatile("bar.sync 2, 256;");
}

// No registers to speak of, no shared memory.
extern "C" __global__ void increment(int* x) { x[threadIdx.x] += 1; }

// Many registers: capped with __launch_bounds__(1024, 1) -> at most 64 per thread.
__global__ void __launch_bounds__(1024, 1) wide(const double* in, double* out) {
  double v[24];
#pragma unroll
  for (int i = 0; i < 24; ++i)
    v[i] = in[threadIdx.x * 24 + i];
  double s = 0;
#pragma unroll
  for (int i = 0; i < 24; ++i)
    for (int j = 0; j < 24; ++j)
      s += v[i] * v[j];
  out[threadIdx.x] = s;
}

// Forced to spill: 48 live doubles under a 32-register cap (__launch_bounds__(1024, 2)).
__global__ void __launch_bounds__(1024, 2) spilling(const double* in, double* out) {
  double v[48];
#pragma unroll
  for (int i = 0; i < 48; ++i)
    v[i] = in[threadIdx.x * 48 + i];
  double s = 0;
#pragma unroll
  for (int i = 0; i < 48; ++i)
#pragma unroll
    for (int j = 0; j < 48; ++j)
      s += v[i] * v[(i + j) % 48];
  out[threadIdx.x] = s;
}

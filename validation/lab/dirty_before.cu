// Does a profiler's cache control keep an earlier kernel's dirty L2 lines out of the next
// kernel's DRAM writes? `fill` leaves DIRTY_MB of written data in the L2 (less than its size),
// then `probe` reads 8 MB and writes 64 KB. With a flush that completes before the profiled pass,
// probe's DRAM writes do not depend on DIRTY_MB.
//   nvcc -O2 -arch=sm_90 -o dirty_before dirty_before.cu && ./dirty_before DIRTY_MB
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void fill(float* p, size_t n, float v) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    p[i] = v + float(i & 1023);
}

__global__ void probe(const float* in, float* out, size_t n) {
  __shared__ float acc[256];
  float s = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    s += in[i];
  acc[threadIdx.x] = s;
  __syncthreads();
  for (int k = 128; k > 0; k /= 2) {
    if (threadIdx.x < k)
      acc[threadIdx.x] += acc[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x < 16) // 64 KB in all: 1024 blocks x 16 floats
    out[blockIdx.x * 16 + threadIdx.x] = acc[0] + threadIdx.x;
}

#define CHECK(x)                                                                                   \
  do {                                                                                             \
    cudaError_t e = (x);                                                                           \
    if (e != cudaSuccess) {                                                                        \
      std::fprintf(stderr, "%s failed: %s\n", #x, cudaGetErrorString(e));                          \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

int main(int argc, char** argv) {
  const size_t dirty = size_t(argc > 1 ? std::atof(argv[1]) : 0) << 20;
  const size_t n_in = (8u << 20) / sizeof(float);
  float *buf = nullptr, *in = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&buf, 64u << 20));
  CHECK(cudaMalloc(&in, n_in * sizeof(float)));
  CHECK(cudaMalloc(&out, 1024 * 16 * sizeof(float)));
  CHECK(cudaMemset(in, 0, n_in * sizeof(float)));
  for (int rep = 0; rep < 2; ++rep) {
    if (dirty)
      fill<<<528, 256>>>(buf, dirty / sizeof(float), float(rep));
    probe<<<1024, 256>>>(in, out, n_in);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
  }
  float h = 0;
  CHECK(cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost));
  std::printf("dirty_before: %zu MB dirty before probe, out[0] = %g\n", dirty >> 20, h);
  return 0;
}

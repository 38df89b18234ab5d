// How many dirty L2 lines of the work before a kernel does a profiler's cache control leave,
// to be written back (and counted) during the kernel? `fill` leaves D MB of written data, then
// `probe` reads 256 MB (five times the H100's L2, so every line left there is evicted) and
// writes 64 KB. probe's own DRAM writes are about nothing, so what a profiler counts for it is
// what its cache control left dirty. Arguments: the values of D in MB (at most 64); two
// launches of probe per value. validation/lab/leftover.sh runs it under ncu and roofline-cuda.
#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#define APP_NAME "leftover"
#include "../../tests/apps/app_check.cuh"

__global__ void fill(float* p, std::size_t n, float v) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    p[i] = v + float(i & 1023);
}

__global__ void probe(const float4* in, std::size_t n, float* out) {
  float s = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const float4 v = in[i];
    s += v.x + v.y + v.z + v.w;
  }
  if (threadIdx.x < 16) // 64 KB in all: 1024 blocks x 16 floats
    out[blockIdx.x * 16 + threadIdx.x] = s;
}

int main(int argc, char** argv) {
  const std::size_t in_bytes = std::size_t(256) << 20;
  const std::size_t buf_bytes = std::size_t(64) << 20;
  float* in = nullptr;
  float* buf = nullptr;
  float* out = nullptr;
  CHECK(cudaMalloc(&in, in_bytes));
  CHECK(cudaMalloc(&buf, buf_bytes));
  CHECK(cudaMalloc(&out, 1024 * 16 * sizeof(float)));
  fill<<<528, 256>>>(in, in_bytes / sizeof(float), 1.0f);
  CHECK(cudaDeviceSynchronize());
  for (int a = 1; a < argc; ++a) {
    const std::size_t dirty = std::min(std::size_t(std::atof(argv[a]) * (1 << 20)), buf_bytes);
    for (int rep = 0; rep < 2; ++rep) {
      if (dirty)
        fill<<<528, 256>>>(buf, dirty / sizeof(float), float(rep));
      probe<<<1024, 256>>>(reinterpret_cast<const float4*>(in), in_bytes / 16, out);
      CHECK(cudaGetLastError());
      CHECK(cudaDeviceSynchronize());
    }
  }
  float h = 0;
  CHECK(cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost));
  // Thread 0 reads float4 k * 262144 for k < 64: floats 1, 2, 3, 4 each time.
  const float want = 64 * 10.0f;
  std::printf(APP_NAME ": out[0] = %g, expected %g: results %s\n", h, want,
              h == want ? "correct" : "WRONG");
  return h == want ? 0 : 1;
}

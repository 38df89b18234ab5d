// Does a partial last wave cost what Nsight Compute's tail rule estimates? The same total work,
// split over grids of 1, 1.5, 1.94, 2, 4 and 16 waves (128-thread blocks), timed with events.
// Two kernels: a DRAM stream (y = a*x + y over 268 MB) and a dependent FMA chain per item.
// ncu's LaunchConfiguration rule estimates that the partial wave of a 1.94-wave launch "may
// account for up to 50%" of the time; if that were time to gain, the one- and two-wave grids
// would be much faster than the 1.94-wave one. Prints one JSON object.
#include <cmath>
#include <cstdio>

#include "lab_timing.cuh"

constexpr int threads = 128;

// Block b owns items [b*n/g, (b+1)*n/g): every grid does the same work.
__device__ void block_range(long n, long& begin, long& end) {
  const long g = gridDim.x, b = blockIdx.x;
  begin = b * n / g;
  end = (b + 1) * n / g;
}

__global__ void stream(const float4* x, float4* y, long n, float a) {
  long begin, end;
  block_range(n, begin, end);
  for (long i = begin + threadIdx.x; i < end; i += blockDim.x) {
    float4 v = x[i], w = y[i];
    w.x = a * v.x + w.x;
    w.y = a * v.y + w.y;
    w.z = a * v.z + w.z;
    w.w = a * v.w + w.w;
    y[i] = w;
  }
}

__global__ void chain(float* y, long n, int length) {
  long begin, end;
  block_range(n, begin, end);
  for (long i = begin + threadIdx.x; i < end; i += blockDim.x) {
    float v = y[i];
    for (int k = 0; k < length; ++k)
      v = v * 0.999f + 0.5f;
    y[i] = v;
  }
}

template <class Kernel, class Launch>
void sweep(const char* name, Kernel kernel, Launch launch, int sms, bool last) {
  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0));
  const int wave = per_sm * sms;
  const double waves[] = {1.0, 1.5, 4096.0 / 2112.0, 2.0, 4.0, 16.0};
  std::printf("  \"%s\": {\"blocks_per_sm\": %d, \"blocks_per_wave\": %d, \"grids\": [", name,
              per_sm, wave);
  for (int i = 0; i < 6; ++i) {
    const int g = static_cast<int>(waves[i] * wave + 0.5);
    const float ms = median_ms([&] { launch(g); }, 201);
    const double w = 1.0 * g / wave, full = std::ceil(w);
    std::printf("%s\n    {\"grid\": %d, \"waves\": %.4f, \"median_ms\": %.5f, "
                "\"idle_share_of_last_wave_model\": %.4f, \"ncu_tail_up_to\": %.4f}",
                i ? "," : "", g, w, ms, (full - w) / full, w > 1 && w != full ? 1.0 / full : 0.0);
  }
  std::printf("]}%s\n", last ? "" : ",");
}

int main() {
  int dev = 0, sms = 0;
  CHECK(cudaSetDevice(dev));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  cudaDeviceProp p{};
  CHECK(cudaGetDeviceProperties(&p, dev));
  const long n4 = 1L << 24; // float4 items: 268 MB per array, past any L2
  const long n1 = 1L << 22; // chain items
  float4 *x, *y;
  CHECK(cudaMalloc(&x, n4 * sizeof(float4)));
  CHECK(cudaMalloc(&y, n4 * sizeof(float4)));
  CHECK(cudaMemset(x, 0x3c, n4 * sizeof(float4)));
  CHECK(cudaMemset(y, 0x3c, n4 * sizeof(float4)));
  std::printf("{\"device\": \"%s\", \"sms\": %d, \"threads_per_block\": %d,\n", p.name, sms,
              threads);
  std::printf("  \"stream_bytes\": %ld, \"chain_items\": %ld, \"chain_length\": 512,\n",
              3 * n4 * (long)sizeof(float4), n1);
  sweep(
      "stream", stream, [&](int g) { stream<<<g, threads>>>(x, y, n4, 1.0001f); }, sms, false);
  sweep(
      "chain", chain, [&](int g) { chain<<<g, threads>>>(reinterpret_cast<float*>(y), n1, 512); },
      sms, true);
  std::printf("}\n");
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  return 0;
}

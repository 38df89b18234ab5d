// Does a higher occupancy limit speed up a grid of less than one wave? The same sum over 268 MB
// (past the L2) by grids of 128 to 4,224 blocks of 256 threads, each launch once with 100 KiB of
// dynamic shared memory per block (2 blocks per SM, 25% theoretical occupancy) and once without
// (8 blocks per SM, 100%), both with the largest shared-memory carveout. Nsight Compute's
// TheoreticalOccupancy rule estimates the time a higher limit would save from the limit alone;
// roofkit names the grid (small_grid) when the grid fits in one wave at the launch's occupancy,
// since every block is then resident from the start. Every sum is checked against the host's (fresh
// random data). Prints one JSON object.
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "lab_timing.cuh"

constexpr int threads = 256;
constexpr int limited_smem = 100 * 1024; // 2 blocks per SM on a 228 KiB SM

// Block b sums items [b*n/g, (b+1)*n/g): every grid does the same work.
__global__ void block_sum(const float4* x, long n, double* total) {
  extern __shared__ float pad[]; // only there to limit the blocks per SM
  const long g = gridDim.x, b = blockIdx.x;
  float s = 0;
  for (long i = b * n / g + threadIdx.x; i < (b + 1) * n / g; i += blockDim.x) {
    const float4 v = x[i];
    s += (v.x + v.y) + (v.z + v.w);
  }
  for (int o = 16; o > 0; o /= 2)
    s += __shfl_down_sync(0xffffffffu, s, o);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(total, static_cast<double>(s));
  if (threadIdx.x == 0 && blockDim.x == 0)
    pad[0] = s; // never true: keeps the shared array
}

// One launch's sum against the host's, relative.
double sum_error(int grid, int smem, const float4* x, long n, double* total, double expected) {
  CHECK(cudaMemset(total, 0, sizeof(double)));
  block_sum<<<grid, threads, smem>>>(x, n, total);
  CHECK(cudaGetLastError());
  double got = 0;
  CHECK(cudaMemcpy(&got, total, sizeof(double), cudaMemcpyDeviceToHost));
  return std::fabs(got - expected) / expected;
}

int main() {
  int sms = 0;
  CHECK(cudaSetDevice(0));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  cudaDeviceProp p{};
  CHECK(cudaGetDeviceProperties(&p, 0));
  CHECK(cudaFuncSetAttribute(block_sum, cudaFuncAttributeMaxDynamicSharedMemorySize, limited_smem));
  // The same L1/shared split for both limits: the largest shared carveout, which the limited
  // launches need. Otherwise the unlimited ones could get a larger L1, where the loads in flight
  // land, and the comparison would not be of the occupancy limit alone.
  CHECK(cudaFuncSetAttribute(block_sum, cudaFuncAttributePreferredSharedMemoryCarveout,
                             cudaSharedmemCarveoutMaxShared));
  const long n = 1L << 24; // float4 items: 268 MB
  std::vector<float4> host(n);
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> u(0.f, 1.f);
  double expected = 0;
  for (auto& v : host) {
    v = {u(rng), u(rng), u(rng), u(rng)};
    expected += (double(v.x) + v.y) + (double(v.z) + v.w);
  }
  float4* x;
  double* total;
  CHECK(cudaMalloc(&x, n * sizeof(float4)));
  CHECK(cudaMalloc(&total, sizeof(double)));
  CHECK(cudaMemcpy(x, host.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
  std::printf("{\"device\": \"%s\", \"sms\": %d, \"threads_per_block\": %d, \"bytes\": %ld,\n"
              "  \"carveout\": \"max shared, both limits\",\n  \"runs\": [",
              p.name, sms, threads, n * (long)sizeof(float4));
  const int grids[] = {128, 2 * sms, 8 * sms, 32 * sms};
  bool first = true;
  for (const int grid : grids)
    for (const int smem : {limited_smem, 0}) {
      int per_sm = 0;
      CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, block_sum, threads, smem));
      const double err = sum_error(grid, smem, x, n, total, expected);
      const float ms = median_ms([&] { block_sum<<<grid, threads, smem>>>(x, n, total); }, 101);
      std::printf("%s\n    {\"grid\": %d, \"dynamic_smem\": %d, \"blocks_per_sm\": %d, "
                  "\"theoretical_occupancy\": %.4f, \"waves\": %.4f, \"median_ms\": %.5f, "
                  "\"gb_per_s\": %.1f, \"sum_relative_error\": %.2e}",
                  first ? "" : ",", grid, smem, per_sm,
                  per_sm * threads / double(p.maxThreadsPerMultiProcessor),
                  grid / double(per_sm * sms), ms, n * sizeof(float4) / (ms * 1e6), err);
      first = false;
      if (err > 1e-4) { // a lost block of the largest grid is 2.4e-4
        std::fprintf(stderr, "sum of grid %d (smem %d) off by %.2e of the host's\n", grid, smem,
                     err);
        return 1;
      }
    }
  std::printf("]}\n");
  CHECK(cudaFree(x));
  CHECK(cudaFree(total));
  return 0;
}

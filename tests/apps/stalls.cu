// Two kernels whose warps wait for different reasons, for `profile --stalls`: a pointer chase
// through 256 MiB (each coalesced load depends on the one before: global-memory latency) and a
// block that passes values around shared memory with a barrier between every step (barriers).
// Both are checked against the CPU.
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#define APP_NAME "stalls"
#include "app_check.cuh"

// Each warp follows its own chain of 128-byte nodes: a node holds the next node's index in all
// 32 words, so the warp's load is one coalesced 128-byte request that depends on the one before.
__global__ void pointer_chase(const unsigned* next, unsigned nodes, unsigned* out, int steps) {
  const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const unsigned lane = threadIdx.x % 32;
  unsigned at = warp * 4099u % nodes;
  for (int i = 0; i < steps; ++i)
    at = next[at * 32 + lane];
  out[blockIdx.x * blockDim.x + threadIdx.x] = at;
}

__global__ void barrier_ring(float* data, int rounds) {
  __shared__ float ring[1024];
  const unsigned t = threadIdx.x;
  float v = data[blockIdx.x * blockDim.x + t];
  for (int r = 0; r < rounds; ++r) {
    ring[t] = v;
    __syncthreads();
    v = 0.5f * (v + ring[(t + 1) % blockDim.x]);
    __syncthreads();
  }
  data[blockIdx.x * blockDim.x + t] = v;
}

int main() {
  const unsigned nodes = 2u << 20; // 2 Mi nodes of 128 bytes: 256 MiB, past the L2
  std::mt19937 rng(std::random_device{}());
  // One random cycle through every node (Sattolo), so a chase never settles in the L2.
  std::vector<unsigned> order(nodes);
  for (unsigned i = 0; i < nodes; ++i)
    order[i] = i;
  for (unsigned i = nodes - 1; i > 0; --i)
    std::swap(order[i], order[std::uniform_int_distribution<unsigned>(0, i - 1)(rng)]);
  std::vector<unsigned> next(std::size_t{nodes} * 32);
  for (unsigned i = 0; i < nodes; ++i)
    for (int w = 0; w < 32; ++w)
      next[std::size_t{i} * 32 + w] = order[i];
  const int chase_threads = 1056 * 256; // one full wave of 8 blocks per SM on 132 SMs
  const int steps = 1000;
  unsigned *d_next = nullptr, *d_out = nullptr;
  CHECK(cudaMalloc(&d_next, next.size() * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_out, chase_threads * sizeof(unsigned)));
  CHECK(cudaMemcpy(d_next, next.data(), next.size() * sizeof(unsigned), cudaMemcpyHostToDevice));
  pointer_chase<<<chase_threads / 256, 256>>>(d_next, nodes, d_out, steps);
  CHECK(cudaGetLastError());
  std::vector<unsigned> out(chase_threads);
  CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int t = 0; t < chase_threads; t += 97) {
    unsigned at = static_cast<unsigned>(t / 32) * 4099u % nodes;
    for (int i = 0; i < steps; ++i)
      at = order[at];
    bad += at != out[t];
  }

  const int blocks = 264, threads = 1024, rounds = 2000;
  std::vector<float> data(blocks * threads);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  for (auto& x : data)
    x = u(rng);
  float* d_data = nullptr;
  CHECK(cudaMalloc(&d_data, data.size() * sizeof(float)));
  CHECK(cudaMemcpy(d_data, data.data(), data.size() * sizeof(float), cudaMemcpyHostToDevice));
  barrier_ring<<<blocks, threads>>>(d_data, rounds);
  CHECK(cudaGetLastError());
  std::vector<float> got(data.size());
  CHECK(cudaMemcpy(got.data(), d_data, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b += 37) {
    std::vector<float> v(data.begin() + b * threads, data.begin() + (b + 1) * threads);
    for (int r = 0; r < rounds; ++r) {
      std::vector<float> ring = v;
      for (int t = 0; t < threads; ++t)
        v[t] = 0.5f * (v[t] + ring[(t + 1) % threads]);
    }
    for (int t = 0; t < threads; ++t)
      bad += v[t] != got[b * threads + t];
  }
  CHECK(cudaFree(d_next));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_data));
  if (bad) {
    std::fprintf(stderr, "stalls: %d wrong results\n", bad);
    return 1;
  }
  std::printf("stalls: all results correct\n");
  return 0;
}

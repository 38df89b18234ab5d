// What a replayed launch costs in each pass as the kernels change from launch to launch and grow
// in code (issue 39: the fourth pass of the training step's replays costs 0.6 ms a launch where a
// repeated small kernel costs 0.04). Launches LAUNCHES kernels round-robin over DISTINCT different
// functions (1..16) of one body, SMALL (one FMA a thread) or LARGE (2,048 dependent FMAs
// unrolled: some 32 KiB of SASS a function), each over 64 Ki floats, and checks the result.
// Usage: distinct_kernels LAUNCHES DISTINCT small|large
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include <cuda_runtime.h>

#include "lab_timing.cuh"

namespace {

constexpr int n = 1 << 16;

template <int K, int Unroll> __global__ void body(float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = y[i];
#pragma unroll
  for (int u = 0; u < Unroll; ++u)
    v = v * 1.0f + static_cast<float>(K + 1); // one FFMA; v * 1.0f keeps it from folding
  y[i] = v;
}

using launcher = void (*)(float*);

template <int K, int Unroll> void launch(float* y) { body<K, Unroll><<<n / 256, 256>>>(y); }

template <int Unroll, int... K> std::vector<launcher> table(std::integer_sequence<int, K...>) {
  return {&launch<K, Unroll>...};
}

} // namespace

int main(int argc, char** argv) {
  const long launches = argc > 1 ? std::atol(argv[1]) : 0;
  const int distinct = argc > 2 ? std::atoi(argv[2]) : 0;
  const bool large = argc > 3 && std::strcmp(argv[3], "large") == 0;
  if (launches < 1 || distinct < 1 || distinct > 16 ||
      (argc > 3 && !large && std::strcmp(argv[3], "small") != 0)) {
    std::fprintf(stderr, "usage: distinct_kernels LAUNCHES(>=1) DISTINCT(1..16) small|large\n");
    return 2;
  }
  const auto seq = std::make_integer_sequence<int, 16>{};
  const std::vector<launcher> fns = large ? table<2048>(seq) : table<1>(seq);
  float* y = nullptr;
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  CHECK(cudaMemset(y, 0, n * sizeof(float)));
  double want = 0;
  for (long i = 0; i < launches; ++i) {
    const int k = static_cast<int>(i % distinct);
    fns[k](y);
    CHECK(cudaGetLastError());
    want += (large ? 2048.0 : 1.0) * (k + 1);
  }
  std::vector<float> h(n);
  CHECK(cudaMemcpy(h.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (static_cast<double>(h[i]) != want) {
      std::fprintf(stderr, "distinct_kernels: y[%d] = %g, expected %g\n", i, h[i], want);
      return 1;
    }
  std::printf("distinct_kernels: %ld launches over %d %s functions verified\n", launches, distinct,
              large ? "large" : "small");
  return 0;
}

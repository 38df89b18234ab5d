// A test application for `roofline-cuda profile`: launches from two threads on their own
// streams, an NVTX range, a stream capture replayed as a CUDA graph, in-place kernels whose
// results are checked (a profiler that re-runs a launch without restoring memory breaks them),
// and, with "crash" as argument, an abort after its first kernels.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include <sys/resource.h>

#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#define APP_NAME "app_features"
#include "app_check.cuh"

__global__ void add_one(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1.0f;
}

__global__ void scale_in_place(double* x, double s, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] * s + 1.0;
}

__global__ void graph_only_kernel(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}

static bool all_equal(const std::vector<float>& v, float want, const char* what) {
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i] != want) {
      std::fprintf(stderr, "app_features: %s[%zu] = %g, expected %g\n", what, i, v[i], want);
      return false;
    }
  return true;
}

int main(int argc, char** argv) {
  const bool crash = argc > 1 && std::strcmp(argv[1], "crash") == 0;
  const int n = 1 << 20;
  std::printf("app_features: start\n");
  std::fflush(stdout);

  // Two threads, each with its own stream, each adding 1 three times in place.
  bool ok = true;
  std::vector<std::thread> threads;
  std::vector<std::vector<float>> results(2, std::vector<float>(n));
  for (int t = 0; t < 2; ++t)
    threads.emplace_back([&, t] {
      cudaStream_t s;
      float* x = nullptr;
      CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
      CHECK(cudaMallocAsync(&x, n * sizeof(float), s));
      CHECK(cudaMemsetAsync(x, 0, n * sizeof(float), s));
      for (int k = 0; k < 3; ++k)
        add_one<<<n / 256, 256, 0, s>>>(x, n);
      CHECK(cudaGetLastError());
      CHECK(cudaMemcpyAsync(results[t].data(), x, n * sizeof(float), cudaMemcpyDeviceToHost, s));
      CHECK(cudaStreamSynchronize(s));
      CHECK(cudaFreeAsync(x, s));
      CHECK(cudaStreamDestroy(s));
    });
  for (auto& th : threads)
    th.join();
  ok = all_equal(results[0], 3.0f, "thread 0") && all_equal(results[1], 3.0f, "thread 1") && ok;

  if (crash) {
    // No core file: a CUDA process's core dump can take minutes (its mappings span the GPU).
    const rlimit no_core{0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    std::fprintf(stderr, "app_features: aborting on purpose\n");
    std::abort();
  }

  // An NVTX range around an FP64 kernel.
  double* d = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(double)));
  CHECK(cudaMemset(d, 0, n * sizeof(double)));
  nvtxRangePushA("scale-range");
  scale_in_place<<<n / 256, 256>>>(d, 3.0, n); // 0 -> 1
  scale_in_place<<<n / 256, 256>>>(d, 3.0, n); // 1 -> 4
  nvtxRangePop();
  std::vector<double> hd(n);
  CHECK(cudaMemcpy(hd.data(), d, n * sizeof(double), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n && ok; ++i)
    if (hd[i] != 4.0) {
      std::fprintf(stderr, "app_features: d[%d] = %g, expected 4\n", i, hd[i]);
      ok = false;
    }

  // A captured stream becomes a graph, launched twice.
  float* g = nullptr;
  cudaStream_t cs;
  CHECK(cudaStreamCreateWithFlags(&cs, cudaStreamNonBlocking));
  CHECK(cudaMalloc(&g, n * sizeof(float)));
  CHECK(cudaMemset(g, 0, n * sizeof(float)));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(cs, cudaStreamCaptureModeGlobal));
  add_one<<<n / 256, 256, 0, cs>>>(g, n);
  graph_only_kernel<<<n / 256, 256, 0, cs>>>(g, n);
  CHECK(cudaStreamEndCapture(cs, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphLaunch(exec, cs)); // (0 + 1) * 2 = 2
  CHECK(cudaGraphLaunch(exec, cs)); // (2 + 1) * 2 = 6
  CHECK(cudaStreamSynchronize(cs));
  std::vector<float> hg(n);
  CHECK(cudaMemcpy(hg.data(), g, n * sizeof(float), cudaMemcpyDeviceToHost));
  ok = all_equal(hg, 6.0f, "graph") && ok;
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(cs));
  CHECK(cudaFree(g));
  CHECK(cudaFree(d));
  std::printf("app_features: %s\n", ok ? "all results correct" : "WRONG RESULTS");
  return ok ? 0 : 1;
}

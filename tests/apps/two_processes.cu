// A test application for `roofline-cuda profile`: two CUDA processes, as a launcher with a worker
// or a multi-process job has. The parent starts a copy of itself ("child" argument) and both
// then use the GPU at the same time: each launches its own in-place kernel three times
// (parent_scale, child_scale) on 64 MiB. Each checks its own results; the parent exits 0 when
// both are correct, and prints "two_processes: ... results correct". With "alone" the parent does
// its work without starting the child (the same kernel in a single process, for comparison).
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#define APP_NAME "two_processes"
#include "app_check.cuh"

extern char** environ;

__global__ void parent_scale(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = 2.0f * x[i] + 1.0f;
}

__global__ void child_scale(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = 3.0f * x[i] - 1.0f;
}

// Runs one process's work; true when its results are right.
static bool work(bool child) {
  const int n = 16 << 20;
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i)
    host[i] = float(i % 1000) * 0.5f;
  float* x = nullptr;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMemcpy(x, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  for (int k = 0; k < 3; ++k) {
    if (child)
      child_scale<<<n / 256, 256>>>(x, n);
    else
      parent_scale<<<n / 256, 256>>>(x, n);
  }
  CHECK(cudaGetLastError());
  std::vector<float> out(n);
  CHECK(cudaMemcpy(out.data(), x, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(x));
  for (int i = 0; i < n; ++i) {
    float want = host[i];
    for (int k = 0; k < 3; ++k)
      want = child ? 3.0f * want - 1.0f : 2.0f * want + 1.0f;
    if (out[i] != want) {
      std::fprintf(stderr, APP_NAME ": %s x[%d] = %g, expected %g\n", child ? "child" : "parent", i,
                   out[i], want);
      return false;
    }
  }
  return true;
}

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "child") == 0)
    return work(true) ? 0 : 1;
  if (argc > 1 && std::strcmp(argv[1], "alone") == 0) {
    const bool ok = work(false);
    std::printf(APP_NAME ": parent alone %s: results %s\n", ok ? "ok" : "wrong",
                ok ? "correct" : "WRONG");
    return ok ? 0 : 1;
  }
  char* child_argv[] = {argv[0], const_cast<char*>("child"), nullptr};
  pid_t pid = 0;
  if (posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, child_argv, environ) != 0) {
    std::perror(APP_NAME ": posix_spawn");
    return 1;
  }
  const bool parent_ok = work(false);
  int status = 0;
  waitpid(pid, &status, 0);
  const bool child_ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  std::printf(APP_NAME ": parent %s, child %s: results %s\n", parent_ok ? "ok" : "wrong",
              child_ok ? "ok" : "wrong", parent_ok && child_ok ? "correct" : "WRONG");
  return parent_ok && child_ok ? 0 : 1;
}

// A test application for `roofline-cuda profile --nvtx-scope`: thread A pushes the NVTX range
// "step" and launches pusher_kernel inside it; while the range is open, thread B (which pushes
// nothing) launches in_range_kernel three times, as PyTorch's autograd thread runs the backward
// pass inside the training loop's range. After A pops it, B launches after_range_kernel. Under
// --nvtx-scope process the range selects B's three launches and A's one; under thread, A's only.
#define APP_NAME "nvtx_threads"
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

#include <nvtx3/nvToolsExt.h>

#include "app_check.cuh"

__global__ void pusher_kernel(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1.0f;
}

__global__ void in_range_kernel(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}

__global__ void after_range_kernel(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] -= 3.0f;
}

namespace {

std::mutex m;
std::condition_variable cv;
int stage = 0; // 1: range open; 2: B launched inside; 3: range closed

void wait_for(int s) {
  std::unique_lock lock(m);
  cv.wait(lock, [s] { return stage >= s; });
}

void advance(int s) {
  {
    std::lock_guard lock(m);
    stage = s;
  }
  cv.notify_all();
}

} // namespace

int main() {
  const int n = 1 << 16;
  float* x = nullptr;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMemset(x, 0, n * sizeof(float)));
  std::thread a([&] {
    nvtxRangePushA("step");
    pusher_kernel<<<n / 256, 256>>>(x, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    advance(1);
    wait_for(2);
    nvtxRangePop();
    advance(3);
  });
  std::thread b([&] {
    wait_for(1);
    for (int i = 0; i < 3; ++i)
      in_range_kernel<<<n / 256, 256>>>(x, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    advance(2);
    wait_for(3);
    after_range_kernel<<<n / 256, 256>>>(x, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
  });
  a.join();
  b.join();
  float h[4] = {};
  CHECK(cudaMemcpy(h, x, sizeof h, cudaMemcpyDeviceToHost));
  // (0 + 1) * 8 - 3
  for (float v : h)
    if (v != 5.0f) {
      std::fprintf(stderr, "nvtx_threads: x = %g, expected 5\n", v);
      return 1;
    }
  std::printf("nvtx_threads: all results correct\n");
  CHECK(cudaFree(x));
  return 0;
}

// A test application for `roofline-cuda profile`: a library of kernels loaded with dlopen after
// CUDA has started, as PyTorch loads its BLAS libraries, whose own exit handler (the runtime's,
// for the fat binary it registered) unloads its module at exit. The application's last launches,
// the library's among them, are still waiting for their replay when it returns: copies to the
// host keep a batch open. The profiler must replay them before the library's handler unloads the
// module, not drop them. Prints "exit_unload: all results correct" and exits 0 when the values
// read back are right.
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>
#include <dlfcn.h>

#define APP_NAME "exit_unload"
#include "app_check.cuh"

__global__ void twice(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}

int main() {
  const int n = 1 << 20;
  const int blocks = n / 256;
  std::vector<float> host(n, 1.0f);
  float* x = nullptr;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMemcpy(x, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  twice<<<blocks, 256>>>(x, n);
  void* library = dlopen(EXIT_MODULE_PATH, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    std::fprintf(stderr, APP_NAME ": dlopen failed: %s\n", dlerror());
    return 1;
  }
  using add_fn = int (*)(float*, int);
  auto add_one = reinterpret_cast<add_fn>(dlsym(library, "exit_module_add_one"));
  if (!add_one) {
    std::fprintf(stderr, APP_NAME ": dlsym failed: %s\n", dlerror());
    return 1;
  }
  for (int k = 0; k < 3; ++k)
    if (add_one(x, n) != 0) {
      std::fprintf(stderr, APP_NAME ": the library's launch failed\n");
      return 1;
    }
  twice<<<blocks, 256>>>(x, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(host.data(), x, n * sizeof(float), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (float v : host)
    wrong += v != 10.0f; // (1 * 2 + 3) * 2
  if (wrong != 0) {
    std::printf(APP_NAME ": %d of %d values wrong (first %g, want 10)\n", wrong, n, host[0]);
    return 1;
  }
  std::printf(APP_NAME ": all results correct\n");
  return 0; // neither the buffer nor the library freed: the batch is open at exit
}

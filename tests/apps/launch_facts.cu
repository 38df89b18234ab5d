// A test application for the launch facts `roofline-cuda profile` records per launch: a kernel
// with static and dynamic shared memory, one with a compile-time cluster shape, one launched with
// a cluster attribute (cudaLaunchKernelEx), and one that keeps an array in local memory. For each
// kernel it prints what the driver itself says (cuFuncGetAttribute), one line each:
//   facts NAME regs R static S local L required_cluster X Y Z
// Prints "launch_facts: all results correct" and exits 0 when every result matches.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda.h>
#include <cuda_runtime.h>

#define APP_NAME "launch_facts"
#include "app_check.cuh"

constexpr int block = 256;
constexpr int n = 1 << 16;
constexpr int dynamic_floats = 1024; // 4 KiB of dynamic shared memory

// 2 KiB static + 4 KiB dynamic shared memory.
__global__ void facts_shared(float* x) {
  __shared__ float fixed[512];
  extern __shared__ float dyn[];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  fixed[threadIdx.x * 2 % 512] = x[i];
  dyn[threadIdx.x * 4 % dynamic_floats] = 1.0f;
  __syncthreads();
  x[i] = fixed[(threadIdx.x * 2 + 2) % 512] + dyn[(threadIdx.x * 4 + 4) % dynamic_floats];
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define FACTS_CLUSTER_DIMS
#else
#define FACTS_CLUSTER_DIMS __cluster_dims__(2, 1, 1)
#endif

// A compile-time cluster of 2 blocks (CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH = 2).
__global__ void FACTS_CLUSTER_DIMS facts_required_cluster(float* x) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  x[i] = x[i] * 2.0f;
}

// Launched with a cluster attribute of 4 x 1 x 1.
__global__ void facts_launch_cluster(float* x) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  x[i] = x[i] + 3.0f;
}

// An array indexed at run time: it lives in local memory (CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES).
__global__ void facts_local(const float* x, float* y, int k) {
  float table[64];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < 64; ++j)
    table[j] = x[(i + j) % n];
  y[i] = table[(i * k) & 63];
}

namespace {

void print_facts(const char* name, const void* symbol) {
  cudaFunction_t rf = nullptr;
  CHECK(cudaGetFuncBySymbol(&rf, symbol));
  CUfunction f = reinterpret_cast<CUfunction>(rf);
  int regs = 0, smem = 0, local = 0, w = 0, h = 0, d = 0;
  auto get = [f](int& v, CUfunction_attribute a) {
    if (cuFuncGetAttribute(&v, a, f) != CUDA_SUCCESS) {
      std::fprintf(stderr, APP_NAME ": cuFuncGetAttribute failed\n");
      std::exit(1);
    }
  };
  get(regs, CU_FUNC_ATTRIBUTE_NUM_REGS);
  get(smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
  get(local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
  get(w, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH);
  get(h, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT);
  get(d, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH);
  std::printf("facts %s regs %d static %d local %d required_cluster %d %d %d\n", name, regs, smem,
              local, w, h, d);
}

} // namespace

int main() {
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i)
    host[i] = static_cast<float>(i % 7);
  float* x = nullptr;
  float* y = nullptr;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  CHECK(cudaMemcpy(x, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  const int grid = n / block;

  facts_shared<<<grid, block, dynamic_floats * sizeof(float)>>>(x);
  CHECK(cudaGetLastError());
  facts_required_cluster<<<grid, block>>>(x);
  CHECK(cudaGetLastError());
  cudaLaunchConfig_t config{};
  cudaLaunchAttribute attr{};
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = 4;
  attr.val.clusterDim.y = 1;
  attr.val.clusterDim.z = 1;
  config.gridDim = dim3(grid);
  config.blockDim = dim3(block);
  config.attrs = &attr;
  config.numAttrs = 1;
  CHECK(cudaLaunchKernelEx(&config, facts_launch_cluster, x));
  facts_local<<<grid, block>>>(x, y, 5);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  // The host's version of the same steps.
  std::vector<float> want(n);
  for (int i = 0; i < n; ++i) {
    const int start = i / block * block;
    want[i] = (host[start + (i - start + 1) % block] + 1.0f) * 2.0f + 3.0f;
  }
  std::vector<float> got(n);
  std::vector<float> got_y(n);
  CHECK(cudaMemcpy(got.data(), x, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(got_y.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    wrong += got[i] != want[i];
    wrong += got_y[i] != want[(i + ((i * 5) & 63)) % n];
  }
  if (wrong > 0) {
    std::fprintf(stderr, APP_NAME ": %d results wrong\n", wrong);
    return 1;
  }
  print_facts("facts_shared", reinterpret_cast<const void*>(facts_shared));
  print_facts("facts_required_cluster", reinterpret_cast<const void*>(facts_required_cluster));
  print_facts("facts_launch_cluster", reinterpret_cast<const void*>(facts_launch_cluster));
  print_facts("facts_local", reinterpret_cast<const void*>(facts_local));
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  std::printf(APP_NAME ": all results correct\n");
  return 0;
}

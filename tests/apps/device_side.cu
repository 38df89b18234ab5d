// A test application for `roofline-cuda profile`: kernels with effects beyond their buffers, and
// an application that marks its own region of interest.
//   - printf from the device: the kernel prints one line ("device_side: hello from block 0");
//     a profiler that replays it without care prints that line once per pass;
//   - the device heap: every block takes memory with malloc, uses it and frees it;
//   - dynamic parallelism: a parent kernel launches a child kernel that changes the buffer in
//   place;
//   - module globals: a kernel counts its launches in a __device__ and a __managed__ variable
//     (a replay that does not restore them counts every pass);
//   - a CUDA array written in place through a surface object;
//   - cudaProfilerStart/cudaProfilerStop around one kernel (region_kernel), with one kernel before
//     (before_region) and one after (after_region);
//   - with "reset-midway", cudaDeviceReset and then more work in the new context
//     (after_reset); the application always ends with cudaDeviceReset, as the CUDA samples do.
// Arguments name the parts to run (printf, heap, cdp, globals, array; default all; "heap-twice"
// launches the heap kernel twice, "default-heap" leaves the heap size as it is); the region's three
// kernels always run. Every kernel works in place and the results are checked on the host. Prints
// "device_side: all results correct" and exits 0 when they match.
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

#define APP_NAME "device_side"
#include "app_check.cuh"

__global__ void say_hello(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0)
    printf("device_side: hello from block %d\n", blockIdx.x);
  if (i < n)
    x[i] += 1.0f;
}

__global__ void heap_user(float* x, int n) {
  __shared__ float* scratch; // one heap block per thread block
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    scratch = static_cast<float*>(malloc(blockDim.x * sizeof(float)));
  __syncthreads();
  if (i < n) {
    if (scratch) {
      scratch[threadIdx.x] = x[i] + 2.0f;
      x[i] = scratch[threadIdx.x];
    } else {
      x[i] = -1.0f; // seen by the host check
    }
  }
  __syncthreads();
  if (threadIdx.x == 0)
    free(scratch);
}

__global__ void child_add(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 3.0f;
}

__global__ void parent_launch(float* x, int n) {
  if (blockIdx.x == 0 && threadIdx.x == 0)
    child_add<<<(n + 255) / 256, 256>>>(x, n);
}

__device__ unsigned int launches_counted;
__managed__ unsigned int managed_launches_counted;

__global__ void count_launch(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) {
    atomicAdd(&launches_counted, 1u);
    atomicAdd(&managed_launches_counted, 1u);
  }
  if (i < n)
    x[i] += 4.0f;
}

__global__ void surface_add(cudaSurfaceObject_t surface, int width, int height) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col < width && row < height) {
    const float v = surf2Dread<float>(surface, col * int(sizeof(float)), row);
    surf2Dwrite(v * 3.0f + 1.0f, surface, col * int(sizeof(float)), row);
  }
}

// A 1024 x 512 CUDA array written in place twice through a surface; true when its values are right.
static bool array_part() {
  const int width = 1024;
  const int height = 512;
  std::vector<float> host(std::size_t(width) * height);
  for (std::size_t i = 0; i < host.size(); ++i)
    host[i] = float(i % 101);
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t array = nullptr;
  CHECK(cudaMallocArray(&array, &desc, width, height, cudaArraySurfaceLoadStore));
  CHECK(cudaMemcpy2DToArray(array, 0, 0, host.data(), width * sizeof(float), width * sizeof(float),
                            height, cudaMemcpyHostToDevice));
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  cudaSurfaceObject_t surface = 0;
  CHECK(cudaCreateSurfaceObject(&surface, &res));
  const dim3 block(32, 8);
  const dim3 grid(width / block.x, height / block.y);
  for (int k = 0; k < 2; ++k)
    surface_add<<<grid, block>>>(surface, width, height);
  CHECK(cudaGetLastError());
  std::vector<float> out(host.size());
  CHECK(cudaMemcpy2DFromArray(out.data(), width * sizeof(float), array, 0, 0, width * sizeof(float),
                              height, cudaMemcpyDeviceToHost));
  CHECK(cudaDestroySurfaceObject(surface));
  CHECK(cudaFreeArray(array));
  for (std::size_t i = 0; i < host.size(); ++i) {
    const float want = (host[i] * 3.0f + 1.0f) * 3.0f + 1.0f;
    if (out[i] != want) {
      std::fprintf(stderr, APP_NAME ": array[%zu] = %g, expected %g\n", i, out[i], want);
      return false;
    }
  }
  return true;
}

__global__ void before_region(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}

__global__ void region_kernel(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 5.0f;
}

__global__ void after_region(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] -= 7.0f;
}

static bool has(int argc, char** argv, const char* part) {
  if (argc < 2)
    return true;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], part) == 0)
      return true;
  return false;
}

int main(int argc, char** argv) {
  const int n = 1 << 20;
  const int blocks = n / 256;
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i)
    host[i] = float(i % 997);
  float* x = nullptr;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMemcpy(x, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  const bool twice = argc > 1 && has(argc, argv, "heap-twice");
  const bool heap = has(argc, argv, "heap") || twice;
  if (heap && !has(argc, argv, "default-heap"))
    CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, std::size_t(64) << 20));

  float add = 0;
  if (has(argc, argv, "printf")) {
    say_hello<<<blocks, 256>>>(x, n);
    CHECK(cudaDeviceSynchronize()); // the device's line comes before the host's next one
    std::printf("device_side: printf kernel done\n");
    add += 1.0f;
  }
  for (int k = 0; k < (twice ? 2 : heap ? 1 : 0); ++k) {
    heap_user<<<blocks, 256>>>(x, n);
    add += 2.0f;
  }
  if (has(argc, argv, "cdp")) {
    parent_launch<<<1, 32>>>(x, n);
    add += 3.0f;
  }
  bool others_right = true;
  if (has(argc, argv, "globals")) {
    for (int k = 0; k < 2; ++k)
      count_launch<<<blocks, 256>>>(x, n);
    add += 8.0f;
    unsigned int counted = 0;
    CHECK(cudaMemcpyFromSymbol(&counted, launches_counted, sizeof counted));
    CHECK(cudaDeviceSynchronize());
    if (counted != 2 || managed_launches_counted != 2) {
      std::fprintf(stderr,
                   APP_NAME ": launches counted %u (__device__), %u (__managed__), "
                            "expected 2\n",
                   counted, managed_launches_counted);
      others_right = false;
    }
  }
  if (has(argc, argv, "array"))
    others_right = array_part() && others_right;
  before_region<<<blocks, 256>>>(x, n);
  CHECK(cudaProfilerStart());
  region_kernel<<<blocks, 256>>>(x, n);
  CHECK(cudaProfilerStop());
  after_region<<<blocks, 256>>>(x, n);
  CHECK(cudaGetLastError());

  std::vector<float> out(n);
  CHECK(cudaMemcpy(out.data(), x, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(x));
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    const float want = ((host[i] + add) * 2.0f + 5.0f) - 7.0f;
    if (out[i] != want && wrong++ < 3)
      std::fprintf(stderr, APP_NAME ": x[%d] = %g, expected %g\n", i, out[i], want);
  }
  if (argc > 1 && has(argc, argv, "reset-midway")) {
    CHECK(cudaDeviceReset());
    CHECK(cudaMalloc(&x, n * sizeof(float)));
    CHECK(cudaMemcpy(x, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    after_region<<<blocks, 256>>>(x, n); // x - 7
    CHECK(cudaMemcpy(out.data(), x, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(x));
    for (int i = 0; i < n; ++i)
      if (out[i] != host[i] - 7.0f && wrong++ < 3)
        std::fprintf(stderr, APP_NAME ": after the reset x[%d] = %g, expected %g\n", i, out[i],
                     host[i] - 7.0f);
  }
  CHECK(cudaDeviceReset());
  const bool right = wrong == 0 && others_right;
  std::printf("device_side: %s\n", right ? "all results correct" : "WRONG RESULTS");
  return right ? 0 : 1;
}

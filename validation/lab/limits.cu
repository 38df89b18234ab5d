// What a profiler attached to the process changes in the context: every cudaLimit, the cache and
// shared-memory configuration, and free device memory, printed before and after a first kernel
// launch (a profiler may set things up at context creation or at the first launch). Run it
// alone and under a profiler and compare (validation/lab/limits.sh).
#include <cstdio>

#include <cuda_runtime.h>

namespace {

__global__ void touch(int* p) { p[threadIdx.x] = threadIdx.x; }

bool check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    std::printf("%s: %s\n", what, cudaGetErrorString(e));
  return e == cudaSuccess;
}

void print_state(const char* when) {
  struct {
    cudaLimit limit;
    const char* name;
  } const limits[] = {{cudaLimitStackSize, "stack_size"},
                      {cudaLimitPrintfFifoSize, "printf_fifo_size"},
                      {cudaLimitMallocHeapSize, "malloc_heap_size"},
                      {cudaLimitDevRuntimeSyncDepth, "dev_runtime_sync_depth"},
                      {cudaLimitDevRuntimePendingLaunchCount, "dev_runtime_pending_launch_count"},
                      {cudaLimitMaxL2FetchGranularity, "max_l2_fetch_granularity"},
                      {cudaLimitPersistingL2CacheSize, "persisting_l2_cache_size"}};
  for (const auto& l : limits) {
    size_t v = 0;
    if (check(cudaDeviceGetLimit(&v, l.limit), l.name))
      std::printf("%s %s %zu\n", when, l.name, v);
  }
  cudaFuncCache cache{};
  if (check(cudaDeviceGetCacheConfig(&cache), "cache config"))
    std::printf("%s cache_config %d\n", when, static_cast<int>(cache));
  size_t free_bytes = 0, total = 0;
  if (check(cudaMemGetInfo(&free_bytes, &total), "mem info"))
    std::printf("%s free_mib %zu\n", when, free_bytes >> 20);
}

} // namespace

int main() {
  if (!check(cudaFree(nullptr), "context"))
    return 1;
  print_state("before_launch");
  int* p = nullptr;
  if (!check(cudaMalloc(&p, 1024), "cudaMalloc"))
    return 1;
  touch<<<1, 32>>>(p);
  if (!check(cudaDeviceSynchronize(), "touch"))
    return 1;
  print_state("after_launch");
  cudaFree(p);
  return 0;
}

// The kernel that sets up the device heap before a replay (prepare_device_heap).
#include "roofkit/app_profile.hpp"
#include "roofkit/core.hpp"

namespace roofkit {

namespace {

__global__ void take_and_free(int* failed) {
  void* p = malloc(16);
  *failed = p == nullptr;
  free(p);
}

} // namespace

void prepare_device_heap() {
  int* failed = nullptr;
  ROOFKIT_CUDA_CHECK(cudaMalloc(&failed, sizeof(int)));
  int host = 1;
  take_and_free<<<1, 1>>>(failed);
  cudaError_t status = cudaGetLastError();
  if (status == cudaSuccess)
    status = cudaMemcpy(&host, failed, sizeof(int), cudaMemcpyDeviceToHost);
  ROOFKIT_CUDA_CHECK(cudaFree(failed));
  ROOFKIT_CUDA_CHECK(status);
  if (host != 0)
    throw runtime_error("the device heap has no room for 16 bytes");
}

} // namespace roofkit

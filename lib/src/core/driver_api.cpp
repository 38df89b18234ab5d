#include "roofkit/core.hpp"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <fmt/format.h>

namespace roofkit {

void* driver_symbol(const char* name) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found{};
  if (cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &found) !=
          cudaSuccess ||
      found != cudaDriverEntryPointSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  return fn;
}

std::string driver_error_name(int status) {
  auto get_name = driver_function<decltype(&cuGetErrorName)>("cuGetErrorName");
  const char* name = nullptr;
  if (get_name && get_name(static_cast<CUresult>(status), &name) == CUDA_SUCCESS && name)
    return name;
  return fmt::format("CUresult {}", status);
}

int visible_device_count() noexcept {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
}

} // namespace roofkit

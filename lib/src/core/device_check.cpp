#include "roofkit/core.hpp"

#include <cuda_runtime_api.h>
#include <fmt/format.h>

namespace roofkit {

std::string missing_device_message(int ordinal, const std::vector<std::string>& names) {
  std::string list;
  for (std::size_t i = 0; i < names.size(); ++i)
    list += fmt::format("{}{} = {}", i == 0 ? "" : ", ", i, names[i]);
  if (names.empty())
    return fmt::format("device {} does not exist; no GPU visible", ordinal);
  return fmt::format("device {} does not exist; {} GPU{} visible: {}", ordinal, names.size(),
                     names.size() == 1 ? "" : "s", list);
}

void require_device(int ordinal) {
  int count = 0;
  ROOFKIT_CUDA_CHECK(cudaGetDeviceCount(&count));
  if (ordinal >= 0 && ordinal < count)
    return;
  std::vector<std::string> names;
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp prop{};
    ROOFKIT_CUDA_CHECK(cudaGetDeviceProperties(&prop, i));
    names.emplace_back(prop.name);
  }
  throw usage_error(missing_device_message(ordinal, names));
}

namespace {
std::string uuid_of(const cudaDeviceProp& prop) { return format_gpu_uuid(prop.uuid.bytes); }
} // namespace

std::vector<std::string> visible_gpu_uuids() {
  std::vector<std::string> out;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError(); // no GPU or no driver: nothing visible, nothing left pending
    return out;
  }
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, i) == cudaSuccess)
      out.push_back(uuid_of(prop));
  }
  return out;
}

std::string gpu_uuid(int ordinal) {
  int count = 0;
  ROOFKIT_CUDA_CHECK(cudaGetDeviceCount(&count));
  if (ordinal < 0 || ordinal >= count)
    return {};
  cudaDeviceProp prop{};
  ROOFKIT_CUDA_CHECK(cudaGetDeviceProperties(&prop, ordinal));
  return uuid_of(prop);
}

} // namespace roofkit

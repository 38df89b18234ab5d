#include "roofkit/core.hpp"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti.h>
#include <fmt/format.h>

#include <utility>

namespace roofkit {

error::error(exit_code code, const std::string& message, std::string hint)
    : std::runtime_error(message), code_(code), hint_(std::move(hint)) {}

error usage_error(const std::string& message) { return error(exit_code::usage, message); }
error runtime_error(const std::string& message, std::string hint) {
  return error(exit_code::failure, message, std::move(hint));
}
error no_device_error(const std::string& message, std::string hint) {
  return error(exit_code::no_device, message, std::move(hint));
}

std::string no_kernel_image_message(int major, int minor) {
  const std::string gpu = major > 0 ? fmt::format("compute capability {}.{}", major, minor)
                                    : std::string("this GPU's architecture");
  const std::string flag =
      major > 0 ? fmt::format("-DCMAKE_CUDA_ARCHITECTURES={}{}", major, minor)
                : std::string("-DCMAKE_CUDA_ARCHITECTURES=NN (the GPU's compute capability, "
                              "e.g. 80 for an A100)");
  std::string built(built_cuda_architectures());
  for (auto& c : built)
    if (c == ';')
      c = ',';
  return fmt::format("this build has no GPU code for {} (built for {}): rebuild with {}", gpu,
                     built.empty() ? "no architecture" : built, flag);
}

namespace detail {

std::string relative_source_path(std::string_view file) {
  // The path from the project's top folder; no build machine's absolute path reaches a user.
  std::size_t best = std::string_view::npos;
  for (std::string_view top :
       {"/lib/src/", "/lib/include/", "/lib/inject/", "/tools/", "/kernels/", "/tests/"}) {
    const auto at = file.rfind(top);
    if (at != std::string_view::npos && (best == std::string_view::npos || at < best))
      best = at;
  }
  if (best != std::string_view::npos)
    return std::string(file.substr(best + 1));
  const auto slash = file.find_last_of("/\\");
  return std::string(slash == std::string_view::npos ? file : file.substr(slash + 1));
}

namespace {
std::string where(const char* call, const char* file, int line) {
  return fmt::format("{} failed at {}:{}", call, relative_source_path(file), line);
}
} // namespace

namespace {
// The current device's compute capability, or 0.0 when it cannot be read (already in an error).
std::pair<int, int> current_capability() {
  int device = 0, major = 0, minor = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess)
    return {0, 0};
  return {major, minor};
}
} // namespace

void throw_cuda_error(int status, const char* call, const char* file, int line) {
  const auto err = static_cast<cudaError_t>(status);
  if (err == cudaErrorNoKernelImageForDevice) {
    const auto [major, minor] = current_capability();
    throw no_device_error(no_kernel_image_message(major, minor));
  }
  const std::string message = fmt::format("{}: {} ({})", where(call, file, line),
                                          cudaGetErrorName(err), cudaGetErrorString(err));
  switch (err) {
  case cudaErrorNoDevice:
    throw no_device_error(message, "no CUDA GPU is visible; check nvidia-smi and "
                                   "CUDA_VISIBLE_DEVICES");
  case cudaErrorInsufficientDriver:
    throw no_device_error(message, "the NVIDIA driver is missing or older than this CUDA "
                                   "runtime; install a driver that supports CUDA 13");
  case cudaErrorInvalidDevice:
    throw usage_error(message + "; check the device ordinal against nvidia-smi -L and "
                                "CUDA_VISIBLE_DEVICES");
  case cudaErrorMemoryAllocation:
    throw runtime_error(message, "the GPU ran out of memory: choose a smaller problem size, or "
                                 "stop the other processes nvidia-smi shows on it");
  case cudaErrorDevicesUnavailable:
    throw runtime_error(message, "the GPU is busy or in exclusive-process compute mode with "
                                 "another process on it (nvidia-smi shows its mode and users)");
  default:
    throw runtime_error(message);
  }
}

void throw_nvpw_error(int status, const char* call, const char* file, int line) {
  throw runtime_error(fmt::format("{}: NVPA status {}", where(call, file, line), status));
}

void throw_cu_error(int status, const char* call, const char* file, int line) {
  const std::string name = driver_error_name(status);
  const std::string message = fmt::format("{}: {}", where(call, file, line), name);
  if (status == CUDA_ERROR_NO_DEVICE || status == CUDA_ERROR_NOT_INITIALIZED)
    throw no_device_error(message, "no CUDA GPU is visible to the driver");
  throw runtime_error(message);
}

void throw_cupti_error(int status, const char* call, const char* file, int line) {
  const auto result = static_cast<CUptiResult>(status);
  const char* name = nullptr;
  if (cuptiGetResultString(result, &name) != CUPTI_SUCCESS || name == nullptr)
    name = "unknown CUPTI error";
  const std::string message = fmt::format("{}: {} ({})", where(call, file, line), name, status);
  switch (result) {
  case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
  case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
    throw no_device_error(
        message, "GPU performance counters are restricted to administrators (ERR_NVGPUCTRPERM): "
                 "run as root, add --cap-add SYS_ADMIN to the container, or load the driver with "
                 "'options nvidia NVreg_RestrictProfilingToAdminUsers=0'; timings are still "
                 "produced without counters");
  case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
    throw no_device_error(message, "another profiler (ncu, nsys, a framework profiler) is "
                                   "attached to this process; run without it");
  case CUPTI_ERROR_HARDWARE_BUSY:
    throw no_device_error(message, "the GPU's performance-monitor hardware is in use by another "
                                   "profiling client; try again when it has finished");
  case CUPTI_ERROR_NOT_SUPPORTED:
    throw no_device_error(message, "this device or configuration does not support counter "
                                   "profiling (needs compute capability 7.5 or later, no MIG, "
                                   "no vGPU without profiling, no confidential computing)");
  default:
    throw runtime_error(message);
  }
}

} // namespace detail
} // namespace roofkit

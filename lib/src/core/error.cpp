#include "roofkit/error.hpp"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti.h>
#include <fmt/format.h>

#include "roofkit/driver_api.hpp"

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

namespace detail {

namespace {
std::string where(const char* call, const char* file, int line) {
  return fmt::format("{} failed at {}:{}", call, file, line);
}
} // namespace

void throw_cuda_error(int status, const char* call, const char* file, int line) {
  const auto err = static_cast<cudaError_t>(status);
  const std::string message = fmt::format("{}: {} ({})", where(call, file, line),
                                          cudaGetErrorName(err), cudaGetErrorString(err));
  switch (err) {
  case cudaErrorNoDevice:
    throw no_device_error(message, "no CUDA GPU is visible; check nvidia-smi and "
                                   "CUDA_VISIBLE_DEVICES, or use --gpu NAME for offline work");
  case cudaErrorInsufficientDriver:
    throw no_device_error(message, "the NVIDIA driver is missing or older than this CUDA "
                                   "runtime; install a driver that supports CUDA 13");
  default:
    throw runtime_error(message);
  }
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

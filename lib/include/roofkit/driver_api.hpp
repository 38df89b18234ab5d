#pragma once
#include <string>

namespace roofkit {

/// Looks up a CUDA driver API function through the runtime (cudaGetDriverEntryPoint), so that
/// roofkit never links libcuda.so and its tools start on machines without a driver. Returns
/// nullptr when the driver or the symbol is missing.
void* driver_symbol(const char* name);

/// Typed form of driver_symbol: `auto f =
/// driver_function<decltype(&cuDeviceGetName)>("cuDeviceGetName");`
template <class F> F driver_function(const char* name) {
  return reinterpret_cast<F>(driver_symbol(name));
}

/// The name of a CUresult ("CUDA_ERROR_INVALID_VALUE"), or "CUresult N" without a driver.
std::string driver_error_name(int status);

/// Number of CUDA devices visible, or 0 when there is no driver or no GPU. Never throws.
int visible_device_count() noexcept;

/// A CUDA version number as the toolkit writes it: 13000 -> "13.0", 12060 -> "12.6".
std::string cuda_version_text(int version);

/// The CUDA versions of the installed driver and of the runtime roofkit was built with.
struct cuda_versions {
  std::string driver;  ///< e.g. "13.0"; "0.0" when there is no driver
  std::string runtime; ///< e.g. "12.6"
};

/// Queries both versions (cudaDriverGetVersion, cudaRuntimeGetVersion). Never throws and creates
/// no context, so it is safe inside another process (the injection library calls it).
cuda_versions query_cuda_versions() noexcept;

} // namespace roofkit

// The driver and runtime versions, as every results file and log records them.
#include "roofkit/core.hpp"
#include <cuda_runtime_api.h>
#include <fmt/format.h>

namespace roofkit {

std::string cuda_version_text(int version) {
  return fmt::format("{}.{}", version / 1000, (version % 1000) / 10);
}

cuda_versions query_cuda_versions() noexcept {
  int driver = 0;
  int runtime = 0;
  if (cudaDriverGetVersion(&driver) != cudaSuccess)
    driver = 0;
  if (cudaRuntimeGetVersion(&runtime) != cudaSuccess)
    runtime = 0;
  return {cuda_version_text(driver), cuda_version_text(runtime)};
}

} // namespace roofkit

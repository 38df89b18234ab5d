// Live device query: CUDA runtime attributes, plus the name, memory size and driver version
// through driver entry points (roofkit never links libcuda).
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include "cc_limits.hpp"
#include "roofkit/core.hpp"
#include "roofkit/device.hpp"

namespace roofkit {

namespace {

template <class F> F require_driver(const char* name) {
  auto f = driver_function<F>(name);
  if (!f)
    throw no_device_error(fmt::format("the CUDA driver has no entry point '{}'", name),
                          "install or update the NVIDIA driver");
  return f;
}

} // namespace

device_model query_device(int ordinal) {
  if (ordinal < 0)
    throw usage_error(fmt::format("device ordinal '{}' is negative (valid: 0 or more)", ordinal));
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count <= 0) {
    cudaGetLastError();
    throw no_device_error(fmt::format("no CUDA GPU found ({})", status != cudaSuccess
                                                                    ? cudaGetErrorName(status)
                                                                    : "0 devices visible"));
  }
  if (ordinal >= count)
    require_device(ordinal); // throws, naming the visible devices

  auto attr = [ordinal](cudaDeviceAttr a) {
    int v = 0;
    ROOFKIT_CUDA_CHECK(cudaDeviceGetAttribute(&v, a, ordinal));
    return v;
  };
  device_model m;
  m.origin = model_origin::live;
  m.ordinal = ordinal;
  m.cc_major = attr(cudaDevAttrComputeCapabilityMajor);
  m.cc_minor = attr(cudaDevAttrComputeCapabilityMinor);
  m.sm_count = attr(cudaDevAttrMultiProcessorCount);
  m.sm_clock_mhz = attr(cudaDevAttrClockRate) / 1000.0;
  m.tensor_clock_mhz = m.sm_clock_mhz;
  m.memory_clock_mhz = attr(cudaDevAttrMemoryClockRate) / 1000.0;
  m.bus_width_bits = attr(cudaDevAttrGlobalMemoryBusWidth);
  m.l2_bytes = attr(cudaDevAttrL2CacheSize);
  m.shared_memory_per_sm_bytes = attr(cudaDevAttrMaxSharedMemoryPerMultiprocessor);
  m.shared_memory_per_block_bytes = attr(cudaDevAttrMaxSharedMemoryPerBlock);
  m.shared_memory_per_block_optin_bytes = attr(cudaDevAttrMaxSharedMemoryPerBlockOptin);
  m.reserved_shared_memory_per_block_bytes = attr(cudaDevAttrReservedSharedMemoryPerBlock);
  m.registers_per_sm = attr(cudaDevAttrMaxRegistersPerMultiprocessor);
  m.registers_per_block = attr(cudaDevAttrMaxRegistersPerBlock);
  m.max_threads_per_sm = attr(cudaDevAttrMaxThreadsPerMultiProcessor);
  m.max_threads_per_block = attr(cudaDevAttrMaxThreadsPerBlock);
  m.max_blocks_per_sm = attr(cudaDevAttrMaxBlocksPerMultiprocessor);
  m.warp_size = attr(cudaDevAttrWarpSize);
  if (auto lim = detail::limits_for_cc(m.cc_major, m.cc_minor))
    m.l1_shared_bytes_per_sm = lim->l1_shared_per_sm; // no attribute reports it

  int runtime = 0;
  ROOFKIT_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  m.runtime_version = cuda_version_text(runtime);

  auto cu_init = require_driver<decltype(&cuInit)>("cuInit");
  auto cu_device_get = require_driver<decltype(&cuDeviceGet)>("cuDeviceGet");
  auto cu_name = require_driver<decltype(&cuDeviceGetName)>("cuDeviceGetName");
  auto cu_total_mem = require_driver<decltype(&cuDeviceTotalMem)>("cuDeviceTotalMem");
  auto cu_driver_version = require_driver<decltype(&cuDriverGetVersion)>("cuDriverGetVersion");
  ROOFKIT_CU_CHECK(cu_init(0));
  CUdevice dev{};
  ROOFKIT_CU_CHECK(cu_device_get(&dev, ordinal));
  char name[256] = {};
  ROOFKIT_CU_CHECK(cu_name(name, static_cast<int>(sizeof name) - 1, dev));
  m.name = name;
  size_t total = 0;
  ROOFKIT_CU_CHECK(cu_total_mem(&total, dev));
  m.global_memory_bytes = static_cast<std::int64_t>(total);
  int driver = 0;
  ROOFKIT_CU_CHECK(cu_driver_version(&driver));
  m.driver_version = cuda_version_text(driver);

  m.consumer_tensor_rates = m.name.find("GeForce") != std::string::npos;
  if (auto spec = match_gpu(m.name, load_gpu_specs())) {
    m.spec_name = spec->name;
    m.unconfirmed = spec->unconfirmed;
    m.memory_type = spec->memory_type;
    m.consumer_tensor_rates = spec->segment == "geforce";
    if (spec->tensor_clock_mhz > 0 && spec->boost_clock_mhz > 0)
      m.tensor_clock_mhz = m.sm_clock_mhz * spec->tensor_clock_mhz / spec->boost_clock_mhz;
  }
  return m;
}

} // namespace roofkit

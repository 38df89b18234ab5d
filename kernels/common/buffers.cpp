#include "common/buffers.hpp"

#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <random>
#include <string_view>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "common/random.hpp"
#include "roofkit/core.hpp"

namespace roofkit::kernels {

float_buffer::float_buffer(std::size_t count, memory_kind kind) : count_(count), kind_(kind) {
  if (count == 0)
    return;
  void* p = nullptr;
  const std::size_t bytes = count * sizeof(float);
  switch (kind) {
  case memory_kind::device:
    ROOFKIT_CUDA_CHECK(cudaMalloc(&p, bytes));
    break;
  case memory_kind::managed:
    ROOFKIT_CUDA_CHECK(cudaMallocManaged(&p, bytes, cudaMemAttachGlobal));
    break;
  case memory_kind::pinned_host:
    ROOFKIT_CUDA_CHECK(cudaMallocHost(&p, bytes));
    break;
  }
  data_ = static_cast<float*>(p);
}

float_buffer::~float_buffer() { reset(); }

float_buffer::float_buffer(float_buffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)),
      kind_(other.kind_) {}

float_buffer& float_buffer::operator=(float_buffer&& other) noexcept {
  if (this != &other) {
    reset();
    data_ = std::exchange(other.data_, nullptr);
    count_ = std::exchange(other.count_, 0);
    kind_ = other.kind_;
  }
  return *this;
}

void float_buffer::reset() {
  if (data_ == nullptr)
    return;
  // Errors on free are ignored: this runs in destructors and after failed launches.
  if (kind_ == memory_kind::pinned_host)
    (void)cudaFreeHost(data_);
  else
    (void)cudaFree(data_);
  data_ = nullptr;
  count_ = 0;
}

std::vector<float> float_buffer::to_host() const {
  std::vector<float> host(count_);
  if (count_ > 0)
    ROOFKIT_CUDA_CHECK(cudaMemcpy(host.data(), data_, bytes(), cudaMemcpyDefault));
  return host;
}

std::uint64_t fresh_seed() {
  static std::atomic<std::uint64_t> counter{0};
  // ROOFKIT_SEED makes the sequence repeatable, so that two processes (a profiler and the tool
  // it is compared with) fill the same data: some kernels' instruction counts depend on it.
  static const std::optional<std::uint64_t> fixed = []() -> std::optional<std::uint64_t> {
    const char* v = std::getenv("ROOFKIT_SEED");
    if (!v || !*v)
      return std::nullopt;
    const std::string_view text(v);
    std::uint64_t s = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), s);
    if (ec != std::errc() || end != text.data() + text.size())
      throw usage_error(fmt::format("ROOFKIT_SEED '{}' is not a whole number (0 to 2^64 - 1)", v));
    return s;
  }();
  if (fixed)
    return mix64(*fixed ^ mix64(++counter));
  std::random_device rd;
  const std::uint64_t entropy = (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
  const auto now =
      static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  return mix64(entropy ^ mix64(now) ^ mix64(++counter));
}

std::size_t random_index(std::size_t first, std::size_t count) {
  if (count == 0)
    return first;
  return first + static_cast<std::size_t>(fresh_seed() % count);
}

float corrupted(float v) {
  if (!std::isfinite(v))
    return 0.5f;
  return v + 1.0f + 2.0f * std::fabs(v);
}

void corrupt_device_value(float* p, std::size_t index) {
  ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
  float v = 0;
  ROOFKIT_CUDA_CHECK(cudaMemcpy(&v, p + index, sizeof v, cudaMemcpyDefault));
  v = corrupted(v);
  ROOFKIT_CUDA_CHECK(cudaMemcpy(p + index, &v, sizeof v, cudaMemcpyDefault));
}

launch_config with_attributes(launch_config launch, const void* function) {
  if (function == nullptr)
    return launch;
  cudaFuncAttributes attr{};
  ROOFKIT_CUDA_CHECK(cudaFuncGetAttributes(&attr, function));
  launch.registers_per_thread = static_cast<std::uint32_t>(attr.numRegs);
  launch.static_smem_bytes = static_cast<std::uint32_t>(attr.sharedSizeBytes);
  return launch;
}

std::map<std::string, std::string> function_facts(const void* function,
                                                  const launch_config& launch) {
  std::map<std::string, std::string> facts;
  if (function == nullptr)
    return facts;
  cudaFuncAttributes attr{};
  ROOFKIT_CUDA_CHECK(cudaFuncGetAttributes(&attr, function));
  const int block = static_cast<int>(launch.block[0] * launch.block[1] * launch.block[2]);
  int blocks_per_sm = 0;
  ROOFKIT_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, function, block,
                                                                   launch.dynamic_smem_bytes));
  int device = 0;
  ROOFKIT_CUDA_CHECK(cudaGetDevice(&device));
  int max_threads = 0;
  ROOFKIT_CUDA_CHECK(
      cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerMultiProcessor, device));
  const int warps_per_block = (block + 31) / 32;
  const double occupancy =
      max_threads > 0 ? static_cast<double>(blocks_per_sm * warps_per_block * 32) / max_threads
                      : 0.0;
  facts["registers"] = std::to_string(attr.numRegs);
  facts["local_bytes_per_thread"] = std::to_string(attr.localSizeBytes);
  facts["static_smem_bytes"] = std::to_string(attr.sharedSizeBytes);
  facts["blocks_per_sm"] = std::to_string(blocks_per_sm);
  facts["theoretical_occupancy"] = fmt::format("{:.4f}", occupancy);
  return facts;
}

void require_free_device_memory(double bytes, const std::string& kernel) {
  std::size_t free = 0, total = 0;
  ROOFKIT_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  const double needed = bytes * 1.1 + 256.0 * (1 << 20);
  if (needed > static_cast<double>(free))
    throw runtime_error(
        fmt::format("{} needs {:.0f} MiB of device memory but only {:.0f} MiB of {:.0f} MiB are "
                    "free",
                    kernel, needed / (1 << 20), static_cast<double>(free) / (1 << 20),
                    static_cast<double>(total) / (1 << 20)),
        "run it at a smaller --size, or free GPU memory used by other processes");
}

} // namespace roofkit::kernels

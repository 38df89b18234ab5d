#pragma once
// Host-side helpers for kernel instances: owned device, pinned and managed buffers, fresh seeds,
// corruption of one value, and the run-time facts of a compiled kernel.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "roofkit/run.hpp"

namespace roofkit::kernels {

/// Where a buffer lives.
enum class memory_kind { device, managed, pinned_host };

/// An owned allocation of `count` floats (cudaMalloc, cudaMallocManaged or cudaMallocHost).
class float_buffer {
public:
  float_buffer() = default;
  float_buffer(std::size_t count, memory_kind kind = memory_kind::device);
  ~float_buffer();
  float_buffer(float_buffer&& other) noexcept;
  float_buffer& operator=(float_buffer&& other) noexcept;
  float_buffer(const float_buffer&) = delete;
  float_buffer& operator=(const float_buffer&) = delete;

  float* data() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(float); }
  /// Copies the whole buffer to a new host vector (synchronous).
  std::vector<float> to_host() const;
  /// Frees the allocation.
  void reset();

private:
  float* data_ = nullptr;
  std::size_t count_ = 0;
  memory_kind kind_ = memory_kind::device;
};

/// A new random seed (std::random_device mixed with a counter): fresh data on every setup. With
/// ROOFKIT_SEED set (a whole number), the sequence of seeds is the same in every process.
std::uint64_t fresh_seed();

/// A random index in [first, first + count) for corrupt_output().
std::size_t random_index(std::size_t first, std::size_t count);

/// A value that no tolerance accepts in place of `v`.
float corrupted(float v);

/// Replaces device (or managed) element p[index] with corrupted(p[index]) (synchronous).
void corrupt_device_value(float* p, std::size_t index);

/// Fills launch.registers_per_thread and launch.static_smem_bytes from cudaFuncGetAttributes.
launch_config with_attributes(launch_config launch, const void* function);

/// Run-time facts of `function` launched with `launch`: registers, local memory per thread,
/// static shared memory, resident blocks per SM and theoretical occupancy (0..1).
std::map<std::string, std::string> function_facts(const void* function,
                                                  const launch_config& launch);

/// Throws roofkit::error when the GPU has less than `bytes` (+10% and 256 MiB) free.
void require_free_device_memory(double bytes, const std::string& kernel);

} // namespace roofkit::kernels

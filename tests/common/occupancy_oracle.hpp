#pragma once
// Inputs of NVIDIA's cuda_occupancy.h (the toolkit header, used as a reference only) built from
// roofkit's arch table; shared by the differential test and the occupancy benchmark.
#include <cstddef>

#include <cuda_occupancy.h>

#include "roofkit/arch.hpp"

namespace roofkit::test {

/// The cuda_occupancy.h device properties of `a` (on a 100-SM device).
inline cudaOccDeviceProp oracle_device(const arch_spec& a) {
  cudaOccDeviceProp p;
  p.computeMajor = a.cc_major;
  p.computeMinor = a.cc_minor;
  p.maxThreadsPerBlock = a.max_threads_per_block;
  p.maxThreadsPerMultiprocessor = a.max_threads_per_sm;
  p.regsPerBlock = a.max_registers_per_block;
  p.regsPerMultiprocessor = a.registers_per_sm;
  p.warpSize = a.warp_size;
  p.sharedMemPerBlock = static_cast<std::size_t>(a.shared_memory_per_block);
  p.sharedMemPerMultiprocessor = static_cast<std::size_t>(a.shared_memory_per_sm);
  p.numSms = 100;
  p.sharedMemPerBlockOptin = static_cast<std::size_t>(a.shared_memory_per_block_optin);
  p.reservedSharedMemPerBlock = static_cast<std::size_t>(a.reserved_shared_memory_per_block);
  return p;
}

} // namespace roofkit::test

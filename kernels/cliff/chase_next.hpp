#pragma once
// The pointer chase's index arithmetic, shared by the kernel and its CPU reference.
#include <cstdint>

#if defined(__CUDACC__)
#define ROOFKIT_HOST_DEVICE __host__ __device__
#else
#define ROOFKIT_HOST_DEVICE
#endif

namespace roofkit::kernels {

/// Where thread t of the chase starts in a table of n elements.
ROOFKIT_HOST_DEVICE inline std::uint32_t chase_start(std::uint32_t t, std::uint32_t n) {
  return static_cast<std::uint32_t>((std::uint64_t{t} * 2654435761u) % n);
}

/// The next index: the bits of the value just loaded mixed with the current index, so that each
/// load's address depends on the previous load (no two loads of a thread overlap).
ROOFKIT_HOST_DEVICE inline std::uint32_t chase_next(std::uint32_t i, std::uint32_t bits,
                                                    std::uint32_t n) {
  const std::uint32_t h = (bits ^ (i * 0x9E3779B9u)) * 0x85EBCA6Bu;
  return (h ^ (h >> 15)) % n;
}

} // namespace roofkit::kernels

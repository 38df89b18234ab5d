#pragma once
// Counter-based random values, the same on the host and on the device: value(seed, i) depends on
// nothing else, so fills are parallel and a host copy can be regenerated. Plain C++17, no fmt.
#include <cstdint>

#if defined(__CUDACC__)
#define ROOFKIT_HD __host__ __device__
#else
#define ROOFKIT_HD
#endif

namespace roofkit::kernels {

/// What random values a buffer holds. None of them is ever zero.
enum class value_kind : int {
  uniform = 0,        ///< floats in [-1, 1), zero excluded
  small_integers = 1, ///< integers +-1..+-8 as floats: any sum of up to 2^20 of them is exact
  integers = 2,       ///< integers +-1..+-1000 as floats
};

/// SplitMix64 finaliser: a bijective 64-bit mix.
ROOFKIT_HD inline std::uint64_t mix64(std::uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// The i-th random 64-bit word of stream `seed`.
ROOFKIT_HD inline std::uint64_t random_bits(std::uint64_t seed, std::uint64_t i) {
  return mix64(seed ^ mix64(i));
}

/// The i-th random value of stream `seed`, of the given kind.
ROOFKIT_HD inline float random_value(std::uint64_t seed, std::uint64_t i, value_kind kind) {
  const std::uint64_t h = random_bits(seed, i);
  switch (kind) {
  case value_kind::small_integers: {
    const int k = static_cast<int>(h % 16u);
    return static_cast<float>(k < 8 ? -(k + 1) : k - 7);
  }
  case value_kind::integers: {
    const int k = static_cast<int>(h % 2000u);
    return static_cast<float>(k < 1000 ? -(k + 1) : k - 999);
  }
  case value_kind::uniform:
  default: {
    const float u = static_cast<float>(h >> 40) * (1.0f / 16777216.0f); // [0, 1), 24 bits
    const float v = 2.0f * u - 1.0f;
    return v == 0.0f ? 0.5f : v;
  }
  }
}

} // namespace roofkit::kernels

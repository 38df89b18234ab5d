#include "cliff/cliff_reference.hpp"

#include <cmath>
#include <cstring>
#include <vector>

#include "cliff/chase_next.hpp"

namespace roofkit::kernels {

float chase_reference(std::span<const float> table, std::uint32_t t, int steps) {
  const auto n = static_cast<std::uint32_t>(table.size());
  std::uint32_t i = chase_start(t, n);
  float sum = 0.0f;
  for (int s = 0; s < steps; ++s) {
    const float v = table[i];
    sum = sum + v;
    std::uint32_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    i = chase_next(i, bits, n);
  }
  return sum;
}

float fma_reference(float x, int chains, int iterations) {
  const float h = x * 0.5f;
  std::vector<float> a(static_cast<std::size_t>(chains));
  for (int k = 0; k < chains; ++k)
    a[k] = 0.25f * static_cast<float>(k);
  for (int it = 0; it < iterations; ++it)
    for (int k = 0; k < chains; ++k)
      a[k] = std::fma(a[k], h, 0.5f);
  float s = 0.0f;
  for (int k = 0; k < chains; ++k)
    s = s + a[k];
  return s;
}

} // namespace roofkit::kernels

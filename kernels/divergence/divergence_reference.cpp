#include "divergence/divergence_reference.hpp"

namespace roofkit::kernels {

bool takes_path_a(std::uint64_t t, int split) {
  if (split == 0)
    return ((t >> 5) & 1u) == 0;
  return static_cast<int>(t & 31u) < split; // blocks are multiples of 32: lane = t mod 32
}

float branch_reference(float x, bool path_a, int iterations) {
  for (int i = 0; i < iterations; ++i) {
    const float p = path_a ? x * 0.999f : x * x;
    x = p + (path_a ? 0.001f : -0.25f);
  }
  return x;
}

} // namespace roofkit::kernels

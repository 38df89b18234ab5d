#include "registers/registers_reference.hpp"

#include <vector>

namespace roofkit::kernels {

float fold_reference(std::span<const float> in, std::uint64_t t, std::uint64_t threads, int k) {
  std::vector<float> acc(static_cast<std::size_t>(k));
  for (int j = 0; j < k; ++j)
    acc[j] = 0.125f * static_cast<float>(j);
  for (std::uint64_t i = t; i < in.size(); i += threads) {
    const float x = in[i];
    for (int j = 0; j < k; ++j) {
      const float p = acc[j] * x;
      acc[j] = p + acc[(j + 1) % k];
    }
  }
  float s = 0.0f;
  for (int j = 0; j < k; ++j)
    s = s + acc[j];
  return s;
}

} // namespace roofkit::kernels

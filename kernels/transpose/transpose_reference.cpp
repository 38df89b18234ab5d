#include "transpose/transpose_reference.hpp"

#include <algorithm>

namespace roofkit::kernels {

void transpose_reference(std::span<const float> in, std::span<float> out, std::int64_t n) {
  constexpr std::int64_t block = 64;
  for (std::int64_t i0 = 0; i0 < n; i0 += block)
    for (std::int64_t j0 = 0; j0 < n; j0 += block)
      for (std::int64_t i = i0; i < std::min(n, i0 + block); ++i)
        for (std::int64_t j = j0; j < std::min(n, j0 + block); ++j)
          out[static_cast<std::size_t>(j * n + i)] = in[static_cast<std::size_t>(i * n + j)];
}

} // namespace roofkit::kernels

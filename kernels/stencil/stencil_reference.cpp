#include "stencil/stencil_reference.hpp"

namespace roofkit::kernels {

void smooth_reference(std::span<const float> in, std::span<float> out) {
  for (std::size_t i = 1; i + 1 < in.size(); ++i) {
    const float s = in[i - 1] + in[i];
    out[i] = (s + in[i + 1]) / 3.0f;
  }
}

} // namespace roofkit::kernels

#include "readonly/readonly_reference.hpp"

namespace roofkit::kernels {

void weighted_window_reference(std::span<const float> in, std::span<const float> w,
                               std::span<float> out) {
  for (std::size_t i = 0; i < out.size(); ++i) {
    float s = 0.0f;
    for (std::size_t k = 0; k < w.size(); ++k) {
      const float p = w[k] * in[i + k];
      s = s + p;
    }
    out[i] = s;
  }
}

} // namespace roofkit::kernels

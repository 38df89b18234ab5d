#include "smem/smem_reference.hpp"

namespace roofkit::kernels {

void repeated_sum_reference(std::span<const float> in, std::span<float> out, int reps) {
  for (std::size_t t = 0; t < in.size(); ++t) {
    float a = 0.0f;
    for (int r = 0; r < reps; r += 4)
      a += in[t];
    out[t] = (a + a) + (a + a);
  }
}

} // namespace roofkit::kernels

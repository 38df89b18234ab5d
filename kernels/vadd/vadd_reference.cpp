#include "vadd/vadd_reference.hpp"

namespace roofkit::kernels {

void add_reference(std::span<const float> a, std::span<const float> b, std::span<float> c) {
  for (std::size_t i = 0; i < a.size(); ++i)
    c[i] = a[i] + b[i];
}

} // namespace roofkit::kernels

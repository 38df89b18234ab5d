#include "reduce/reduce_reference.hpp"

namespace roofkit::kernels {

double sum_reference(std::span<const float> x) {
  double s = 0;
  for (float v : x)
    s += v;
  return s;
}

double dot_reference(std::span<const float> x, std::span<const float> y) {
  double s = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    s += static_cast<double>(x[i]) * y[i];
  return s;
}

} // namespace roofkit::kernels

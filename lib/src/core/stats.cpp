// Small statistics shared by the measurements.
#include <algorithm>

#include "roofkit/core.hpp"

namespace roofkit {

double median_of(std::vector<double> v) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

} // namespace roofkit

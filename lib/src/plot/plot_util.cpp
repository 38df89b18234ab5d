#include "plot_util.hpp"

#include <cmath>

#include <fmt/format.h>

namespace roofkit {

std::string num(double v) {
  if (!std::isfinite(v))
    return "0";
  double r = std::round(v * 100) / 100;
  if (r == 0)
    r = 0; // no "-0"
  std::string s = fmt::format("{:.2f}", r);
  while (!s.empty() && s.back() == '0')
    s.pop_back();
  if (!s.empty() && s.back() == '.')
    s.pop_back();
  return s;
}

} // namespace roofkit

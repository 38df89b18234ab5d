// Values and units of Nsight Compute CSV exports, converted to base units.
#include <cctype>
#include <charconv>
#include <optional>
#include <string>
#include <string_view>

#include "roofkit/ncu_import.hpp"

#include "internal/text_util.hpp"

namespace roofkit {

using detail::trim;

namespace {

std::optional<double> time_scale(std::string_view u) {
  if (u == "second" || u == "s")
    return 1.0;
  if (u == "msecond" || u == "ms")
    return 1e-3;
  if (u == "usecond" || u == "us")
    return 1e-6;
  if (u == "nsecond" || u == "ns")
    return 1e-9;
  return std::nullopt;
}

// The scale of one side of a unit ("Kbyte", "cycle", "usecond", "Ghz"); 1 for unknown units.
double scale_of(std::string_view u) {
  u = trim(u);
  if (auto t = time_scale(u))
    return *t;
  if (u.size() > 1 && std::islower(static_cast<unsigned char>(u[1]))) {
    switch (u[0]) {
    case 'K':
      return 1e3;
    case 'M':
      return 1e6;
    case 'G':
      return 1e9;
    case 'T':
      return 1e12;
    case 'P':
      return 1e15;
    default:
      break;
    }
  }
  return 1.0;
}

} // namespace

std::optional<double> ncu_value(std::string_view value, std::string_view unit) {
  value = trim(value);
  std::string digits;
  digits.reserve(value.size());
  for (char c : value)
    if (c != ',')
      digits += c;
  if (digits.empty())
    return std::nullopt;
  double v = 0;
  const char* begin = digits.data();
  if (*begin == '+')
    ++begin;
  const char* end = digits.data() + digits.size();
  auto [ptr, ec] = std::from_chars(begin, end, v);
  if (ec != std::errc() || ptr != end)
    return std::nullopt;
  unit = trim(unit);
  if (unit.empty() || unit == "%")
    return v;
  const auto slash = unit.find('/');
  if (slash == std::string_view::npos)
    return v * scale_of(unit);
  return v * scale_of(unit.substr(0, slash)) / scale_of(unit.substr(slash + 1));
}

} // namespace roofkit

#include "internal/text_util.hpp"

#include <cctype>
#include <cmath>

#include <fmt/format.h>

namespace roofkit::detail {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size())
    return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

std::optional<std::int64_t> size_suffix_scale(std::string_view suffix) {
  if (suffix.empty())
    return 1;
  int shift = 10;
  for (const char* unit : {"k", "m", "g"}) {
    const std::string u(unit);
    if (iequals(suffix, u) || iequals(suffix, u + "b") || iequals(suffix, u + "ib"))
      return std::int64_t{1} << shift;
    shift += 10;
  }
  return std::nullopt;
}

std::size_t char_count(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s)
    n += (c & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

std::string cut_to_chars(const std::string& s, std::size_t max_chars) {
  std::size_t chars = 0, keep = s.size();
  for (std::size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) == 0x80)
      continue;
    if (chars + 1 == max_chars)
      keep = i;
    ++chars;
  }
  return chars > max_chars ? s.substr(0, keep) + "\u2026" : s;
}

std::string percent(double fraction) { return fmt::format("{:.1f}%", fraction * 100); }

std::string percent_short(double fraction) {
  const double p = fraction * 100;
  if (std::abs(p - std::round(p)) < 1e-9)
    return fmt::format("{:.0f}%", p);
  return fmt::format("{:.1f}%", p);
}

std::string percent_rounded(double fraction) { return fmt::format("{:.0f}%", 100 * fraction); }

} // namespace roofkit::detail

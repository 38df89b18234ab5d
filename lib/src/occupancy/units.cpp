// Parsing and printing of the occupancy inputs: sizes with suffixes, carveouts.
#include <cctype>
#include <charconv>

#include <fmt/format.h>

#include "internal/text_util.hpp"
#include "roofkit/core.hpp"
#include "roofkit/occupancy.hpp"

namespace roofkit {

using detail::iequals;
using detail::trim;

std::int64_t parse_size(std::string_view text, std::string_view what) {
  const std::string_view s = trim(text);
  std::int64_t whole = 0;
  const char* p = s.data();
  const char* end = s.data() + s.size();
  auto [after, ec] = std::from_chars(p, end, whole);
  bool ok = ec == std::errc() && after != p && whole >= 0;
  // An optional fraction ("1.5K") is allowed with a suffix.
  std::int64_t frac_num = 0;
  std::int64_t frac_den = 1;
  if (ok && after != end && *after == '.') {
    const char* q = after + 1;
    while (q != end && std::isdigit(static_cast<unsigned char>(*q)) && frac_den < 1000000) {
      frac_num = frac_num * 10 + (*q - '0');
      frac_den *= 10;
      ++q;
    }
    ok = q != after + 1;
    after = q;
  }
  std::int64_t scale = 1;
  if (ok) {
    const std::string_view suffix = trim(std::string_view(after, end - after));
    // Bytes, K or M (a G would pass any per-block limit).
    const auto factor =
        iequals(suffix, "b") ? std::optional<std::int64_t>(1) : detail::size_suffix_scale(suffix);
    if (factor && *factor <= std::int64_t{1} << 20)
      scale = *factor;
    else
      ok = false;
  }
  const std::int64_t limit = std::int64_t{1} << 40;
  if (ok && whole < limit / scale) {
    const std::int64_t frac_bytes = frac_num * scale;
    if (frac_bytes % frac_den == 0)
      return whole * scale + frac_bytes / frac_den;
  }
  throw usage_error(fmt::format("{} '{}' is not a size (valid: bytes, or a number with K or M, "
                                "e.g. 49152 or 48K)",
                                what, text));
}

int parse_carveout(std::string_view text) {
  std::string_view s = trim(text);
  if (iequals(s, "default"))
    return carveout_default;
  if (iequals(s, "max_shared") || iequals(s, "maxshared"))
    return 100;
  if (iequals(s, "max_l1") || iequals(s, "maxl1"))
    return 0;
  if (!s.empty() && s.back() == '%')
    s.remove_suffix(1);
  int value = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty() || value < carveout_default ||
      value > 100)
    throw usage_error(fmt::format("carveout '{}' out of range (valid: -1 or default, 0..100 %, "
                                  "max_shared, max_l1)",
                                  text));
  return value;
}

std::string format_bytes(std::int64_t bytes) {
  if (bytes >= 1024 && bytes % 1024 == 0)
    return fmt::format("{} KB", bytes / 1024);
  if (bytes >= 1024)
    return fmt::format("{:.2f} KB ({} B)", static_cast<double>(bytes) / 1024, bytes);
  return fmt::format("{} B", bytes);
}

std::string_view to_string(occupancy_variable v) {
  switch (v) {
  case occupancy_variable::block_size:
    return "block_size";
  case occupancy_variable::registers:
    return "registers";
  case occupancy_variable::shared_memory:
    return "shared_memory";
  }
  return "unknown";
}

} // namespace roofkit

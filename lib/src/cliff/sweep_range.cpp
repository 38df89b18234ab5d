// Sweep axes and ranges: names, parsing of "a:b:step" / "a:b:xF", the values, the defaults.
#include <cctype>
#include <charconv>
#include <limits>

#include <fmt/format.h>

#include "internal/text_util.hpp"
#include "roofkit/cliff.hpp"
#include "roofkit/core.hpp"

namespace roofkit {

namespace {

constexpr const char* range_form = "first:last:step or first:last:xFACTOR, e.g. 64:1024:64 or "
                                   "1M:1G:x2";

struct axis_bounds {
  std::int64_t min;
  std::int64_t max;
  const char* text;
};

axis_bounds bounds_of(sweep_axis a) {
  switch (a) {
  case sweep_axis::block:
    return {1, 1024, "1..1024 threads"};
  case sweep_axis::smem:
    return {0, std::int64_t{1} << 30, "0..1G bytes"};
  case sweep_axis::regs:
    return {1, 255, "1..255 registers"};
  case sweep_axis::size:
    break;
  }
  return {1, std::int64_t{1} << 40, "1..1T"};
}

// "4096", "48K", "48KB", "48KiB", "1M", "2G" (powers of 1024); nullopt when not a number.
std::optional<std::int64_t> count_of(std::string_view s) {
  std::int64_t v = 0;
  const char* end = s.data() + s.size();
  auto [after, ec] = std::from_chars(s.data(), end, v);
  if (ec != std::errc() || after == s.data() || v < 0)
    return std::nullopt;
  const std::string_view suffix(after, static_cast<std::size_t>(end - after));
  const auto factor = detail::size_suffix_scale(suffix);
  if (!factor)
    return std::nullopt;
  const std::int64_t scale = *factor;
  if (v > std::numeric_limits<std::int64_t>::max() / scale / 4)
    return std::nullopt;
  return v * scale;
}

} // namespace

std::int64_t parse_count(std::string_view text, std::string_view what) {
  if (const auto v = count_of(text))
    return *v;
  throw usage_error(fmt::format("{} '{}' is not a count (valid: a number with an optional K, M "
                                "or G suffix, e.g. 32M)",
                                what, text));
}

std::string to_string(sweep_axis a) {
  switch (a) {
  case sweep_axis::block:
    return "block";
  case sweep_axis::smem:
    return "smem";
  case sweep_axis::regs:
    return "regs";
  case sweep_axis::size:
    return "size";
  }
  return "?";
}

sweep_axis parse_sweep_axis(std::string_view text) {
  for (auto a : {sweep_axis::block, sweep_axis::smem, sweep_axis::regs, sweep_axis::size})
    if (text == to_string(a))
      return a;
  throw usage_error(fmt::format("sweep '{}' is not known (valid: block, smem, regs, size)", text));
}

std::string sweep_axis_label(sweep_axis a) {
  switch (a) {
  case sweep_axis::block:
    return "threads per block";
  case sweep_axis::smem:
    return "dynamic shared memory per block (bytes)";
  case sweep_axis::regs:
    return "register cap per thread";
  case sweep_axis::size:
    return "problem size";
  }
  return "";
}

sweep_range parse_sweep_range(std::string_view text, sweep_axis axis) {
  auto bad = [&](const std::string& why) {
    return usage_error(fmt::format("range '{}' {} (expected {})", text, why, range_form));
  };
  const auto c1 = text.find(':');
  const auto c2 = c1 == std::string_view::npos ? c1 : text.find(':', c1 + 1);
  if (c1 == std::string_view::npos || c2 == std::string_view::npos ||
      text.find(':', c2 + 1) != std::string_view::npos)
    throw bad("is not three fields separated by ':'");
  sweep_range r;
  const auto first = count_of(text.substr(0, c1));
  const auto last = count_of(text.substr(c1 + 1, c2 - c1 - 1));
  std::string_view step = text.substr(c2 + 1);
  if (!first)
    throw bad(fmt::format("has a first value '{}' that is not a count", text.substr(0, c1)));
  if (!last)
    throw bad(
        fmt::format("has a last value '{}' that is not a count", text.substr(c1 + 1, c2 - c1 - 1)));
  r.first = *first;
  r.last = *last;
  if (!step.empty() && (step.front() == 'x' || step.front() == '*')) {
    r.geometric = true;
    step.remove_prefix(1);
  }
  const auto s = count_of(step);
  if (!s)
    throw bad(fmt::format("has a step '{}' that is not a count", text.substr(c2 + 1)));
  r.step = *s;
  if (r.geometric && r.step < 2)
    throw bad("has a factor below 2 (valid: x2 or more)");
  if (!r.geometric && r.step < 1)
    throw bad("has a step below 1 (valid: 1 or more)");
  if (r.geometric && r.first < 1)
    throw bad("starts a geometric range at 0 (valid: 1 or more)");
  if (r.first > r.last)
    throw bad(fmt::format("is empty: first {} is above last {}", r.first, r.last));
  const auto b = bounds_of(axis);
  if (r.first < b.min || r.last > b.max)
    throw usage_error(fmt::format("range '{}' is outside the {} sweep's valid values ({})", text,
                                  to_string(axis), b.text));
  const auto n = sweep_values(r).size();
  if (n > max_sweep_points)
    throw bad(fmt::format("has {} values (valid: at most {})", n, max_sweep_points));
  return r;
}

std::vector<std::int64_t> sweep_values(const sweep_range& r) {
  std::vector<std::int64_t> v;
  if (r.step < 1 || (r.geometric && (r.step < 2 || r.first < 1)))
    return v;
  for (std::int64_t x = r.first; x <= r.last;) {
    v.push_back(x);
    if (v.size() > max_sweep_points)
      break;
    if (r.geometric) {
      if (x > r.last / r.step)
        break;
      x *= r.step;
    } else {
      if (x > r.last - r.step)
        break;
      x += r.step;
    }
  }
  return v;
}

sweep_range default_sweep_range(sweep_axis a) {
  switch (a) {
  case sweep_axis::block:
    return {32, 1024, 32, false};
  case sweep_axis::smem:
    return {0, 224 * 1024, 8 * 1024, false};
  case sweep_axis::regs:
    return {16, 128, 8, false};
  case sweep_axis::size:
    break;
  }
  return {std::int64_t{1} << 16, std::int64_t{1} << 30, 2, true};
}

double parse_threshold_percent(std::string_view text) {
  std::string_view t = text;
  if (!t.empty() && t.back() == '%')
    t.remove_suffix(1);
  double v = 0;
  auto [after, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || after != t.data() + t.size() || !(v > 0) || !(v < 100))
    throw usage_error(fmt::format(
        "threshold '{}' is not a percentage (valid: above 0 and below 100, e.g. 5)", text));
  return v / 100;
}

std::optional<double> time_unit_seconds(std::string_view unit) {
  if (unit == "s")
    return 1.0;
  if (unit == "ms")
    return 1e-3;
  if (unit == "us" || unit == "\u00b5s")
    return 1e-6;
  if (unit == "ns")
    return 1e-9;
  return std::nullopt;
}

std::string to_string(const sweep_range& r) {
  return fmt::format("{}:{}:{}{}", r.first, r.last, r.geometric ? "x" : "", r.step);
}

} // namespace roofkit

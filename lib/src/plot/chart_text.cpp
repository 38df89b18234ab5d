#include <algorithm>
#include <cmath>
#include <sstream>

#include <fmt/format.h>

#include "internal/chart_parts.hpp"

namespace roofkit::chart_detail {

std::string rate_unit(precision p) { return p == precision::tensor_int8 ? "OP/s" : "FLOP/s"; }

std::string short_name(const std::string& name, std::size_t max_chars) {
  return short_kernel_name(name, max_chars);
}

std::string fit_text(const std::string& s, double size, double max_px, bool bold) {
  if (text_width(s, size, bold) <= max_px)
    return s;
  std::string t = s;
  while (!t.empty()) {
    do
      t.pop_back();
    while (!t.empty() && (static_cast<unsigned char>(t.back()) & 0xC0) == 0x80);
    if (!t.empty() && (static_cast<unsigned char>(t.back()) & 0x80))
      t.pop_back(); // the lead byte of a cut multi-byte character
    if (text_width(t + "\u2026", size, bold) <= max_px)
      return t + "\u2026";
  }
  return "\u2026";
}

std::vector<std::string> glued_words(const std::string& s) {
  std::vector<std::string> words;
  std::istringstream in(s);
  std::string word;
  bool after_number = false;
  while (in >> word) {
    // A number keeps its unit on the same line ("2.88 TB/s").
    if (after_number && !words.empty())
      words.back() += " " + word;
    else
      words.push_back(word);
    after_number = std::isdigit(static_cast<unsigned char>(word.front())) &&
                   word.find_first_not_of("0123456789.,") == std::string::npos;
  }
  return words;
}

std::vector<std::string> wrap_text(const std::string& s, double size, double max_px) {
  std::vector<std::string> lines;
  std::string line;
  for (const std::string& word : glued_words(s)) {
    const std::string candidate = line.empty() ? word : line + " " + word;
    if (!line.empty() && text_width(candidate, size) > max_px) {
      lines.push_back(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (!line.empty())
    lines.push_back(line);
  return lines;
}

std::string format_number(double v) {
  const double a = std::fabs(v);
  if (!std::isfinite(v))
    return "n/a";
  if (a == 0)
    return "0";
  if (a >= 1e6 || a < 1e-3)
    return fmt::format("{:.2e}", v);
  if (a >= 100)
    return fmt::format("{:.0f}", v);
  return fmt::format("{:.3g}", v);
}

std::string format_time(double seconds) {
  if (seconds <= 0 || !std::isfinite(seconds))
    return "n/a";
  return format_si(seconds, "s");
}

double nice_step(double span, int target) {
  const double raw = span / target;
  const double mag = std::pow(10, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * mag >= raw)
      return m * mag;
  return 10 * mag;
}

void nice_log_range(double min_v, double max_v, double margin_decades, double min_decades,
                    double& lo, double& hi) {
  // Candidate ends are 1, 2 and 5 times a power of ten.
  const auto step_down = [](double v) {
    const double e = std::floor(std::log10(v) + 1e-9);
    const double m = v / std::pow(10.0, e);
    const double nice = m >= 5 - 1e-9 ? 5 : m >= 2 - 1e-9 ? 2 : 1;
    return nice * std::pow(10.0, e);
  };
  const auto step_up = [](double v) {
    const double e = std::floor(std::log10(v) - 1e-9);
    const double m = v / std::pow(10.0, e);
    const double nice = m <= 1 + 1e-9 ? 1 : m <= 2 + 1e-9 ? 2 : m <= 5 + 1e-9 ? 5 : 10;
    return nice * std::pow(10.0, e);
  };
  lo = step_down(min_v / std::pow(10.0, margin_decades));
  hi = step_up(max_v * std::pow(10.0, margin_decades));
  bool grow_hi = true;
  while (std::log10(hi / lo) < min_decades - 1e-9) {
    if (grow_hi)
      hi = step_up(hi * 1.0001);
    else
      lo = step_down(lo / 1.0001);
    grow_hi = !grow_hi;
  }
}

std::string x_tick_label(double v) {
  const int e = static_cast<int>(std::lround(std::log10(v)));
  if (e >= 0 && e <= 3)
    return fmt::format("{}", static_cast<long long>(std::llround(v)));
  if (e > 3 && e <= 5)
    return fmt::format("{}k", static_cast<long long>(std::llround(v / 1000)));
  if (e < 0 && e >= -3)
    return fmt::format("{:.{}f}", v, -e);
  return fmt::format("1e{}", e);
}

std::string y_tick_label(double v) {
  std::string s = format_si(v, "");
  // "100 G" stays; "1.00 T" becomes "1 T".
  const auto space = s.find(' ');
  std::string digits = s.substr(0, space);
  if (digits.find('.') != std::string::npos) {
    while (digits.back() == '0')
      digits.pop_back();
    if (digits.back() == '.')
      digits.pop_back();
  }
  return digits + s.substr(space);
}

attributes quad_attrs(const quad& q, const std::string& cls) {
  std::string corners;
  for (const auto& p : q.corners) {
    if (!corners.empty())
      corners += ' ';
    corners += fmt::format("{:.2f},{:.2f}", p.x, p.y);
  }
  return {{"class", cls}, {"data-quad", corners}};
}

} // namespace roofkit::chart_detail

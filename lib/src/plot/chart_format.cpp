#include <array>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "roofkit/plot.hpp"

namespace roofkit {

std::string format_si(double value, const std::string& unit) {
  if (!std::isfinite(value))
    return "n/a";
  if (value == 0)
    return "0 " + unit;
  struct prefix {
    double scale;
    const char* name;
  };
  static constexpr std::array<prefix, 11> prefixes{{{1e18, "E"},
                                                    {1e15, "P"},
                                                    {1e12, "T"},
                                                    {1e9, "G"},
                                                    {1e6, "M"},
                                                    {1e3, "k"},
                                                    {1, ""},
                                                    {1e-3, "m"},
                                                    {1e-6, "\u00b5"},
                                                    {1e-9, "n"},
                                                    {1e-12, "p"}}};
  const double a = std::fabs(value);
  prefix chosen = prefixes.back();
  for (const auto& p : prefixes)
    if (a >= p.scale * 0.9995) {
      chosen = p;
      break;
    }
  const double v = value / chosen.scale;
  const double av = std::fabs(v);
  std::string digits = av >= 99.95   ? fmt::format("{:.0f}", v)
                       : av >= 9.995 ? fmt::format("{:.1f}", v)
                                     : fmt::format("{:.2f}", v);
  return digits + " " + chosen.name + unit;
}

const std::string& kernel_color(std::size_t i) {
  // Tableau 10, with the yellow and the grey darkened so that text stays readable on white.
  static const std::array<std::string, 10> palette{"#4e79a7", "#f28e2b", "#e15759", "#3d918b",
                                                   "#59a14f", "#b8901a", "#b07aa1", "#d0607a",
                                                   "#9c755f", "#5f5f5f"};
  return palette[i % palette.size()];
}

const std::string& topic_color(std::size_t i) {
  // Tableau 10 (darkened yellow and grey) followed by six darker hues of other families.
  static const std::array<std::string, 16> palette{
      "#4e79a7", "#f28e2b", "#e15759", "#3d918b", "#59a14f", "#b8901a", "#b07aa1", "#d0607a",
      "#9c755f", "#5f5f5f", "#1b3d8f", "#8c2d04", "#6a3d9a", "#00838f", "#2e6b1f", "#b0006e"};
  return palette[i % palette.size()];
}

marker_shape level_marker(memory_level l) {
  switch (l) {
  case memory_level::dram:
    return marker_shape::circle;
  case memory_level::l2:
    return marker_shape::square;
  case memory_level::l1:
    return marker_shape::triangle;
  }
  return marker_shape::circle;
}

double log_axis::to_px(double v) const {
  return px_lo +
         (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo)) * (px_hi - px_lo);
}

double log_axis::from_px(double px) const {
  const double t = (px - px_lo) / (px_hi - px_lo);
  return std::pow(10.0, std::log10(lo) + t * (std::log10(hi) - std::log10(lo)));
}

} // namespace roofkit

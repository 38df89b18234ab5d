// The cliffs nearest a launch as one line each, with the sweep range that would measure them.
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "roofkit/occupancy.hpp"

namespace roofkit {

namespace {

std::string percent(double occupancy) {
  const double p = occupancy * 100;
  if (std::abs(p - std::round(p)) < 1e-9)
    return fmt::format("{:.0f}%", p);
  return fmt::format("{:.1f}%", p);
}

std::string amount_text(occupancy_variable v, std::int64_t amount) {
  switch (v) {
  case occupancy_variable::registers:
    return fmt::format("{} register{}", amount, amount == 1 ? "" : "s");
  case occupancy_variable::block_size:
    return fmt::format("{} thread{}", amount, amount == 1 ? "" : "s");
  case occupancy_variable::shared_memory:
    return fmt::format("{} B of shared memory", amount);
  }
  return {};
}

std::string at_text(occupancy_variable v, std::int64_t value) {
  switch (v) {
  case occupancy_variable::registers:
    return fmt::format("{}/thread", value);
  case occupancy_variable::block_size:
    return fmt::format("{} threads/block", value);
  case occupancy_variable::shared_memory:
    return fmt::format("{} B/block", value);
  }
  return {};
}

// The granularity a sweep of `v` steps in: 1 register, a warp of threads, 256 B of shared memory
// (or the architecture's allocation unit).
std::int64_t granule(occupancy_variable v, const arch_spec& a) {
  switch (v) {
  case occupancy_variable::registers:
    return 1;
  case occupancy_variable::block_size:
    return a.warp_size;
  case occupancy_variable::shared_memory:
    return std::max<std::int64_t>(a.shared_memory_allocation_unit, 1);
  }
  return 1;
}

} // namespace

std::string_view sweep_name(occupancy_variable v) {
  switch (v) {
  case occupancy_variable::registers:
    return "regs";
  case occupancy_variable::block_size:
    return "block";
  case occupancy_variable::shared_memory:
    return "smem";
  }
  return "regs";
}

std::vector<cliff_line> nearby_cliffs(const arch_spec& arch, const launch_params& launch) {
  std::vector<cliff_line> out;
  for (const auto& c : find_cliffs(arch, launch)) {
    for (const auto* side : {&c.below, &c.above}) {
      // A change of block count that leaves the occupancy as it is is no cliff.
      if (!*side || std::fabs((*side)->occupancy - c.current.occupancy) < 1e-12)
        continue;
      cliff_line l;
      l.variable = c.variable;
      l.current = c.current.value;
      l.value = (*side)->value;
      l.distance = l.value - l.current;
      l.from = c.current.occupancy;
      l.to = (*side)->occupancy;
      l.text = fmt::format("{}{} ({}): {} -> {}", l.distance > 0 ? "+" : "-",
                           amount_text(c.variable, std::llabs(l.distance)),
                           at_text(c.variable, l.value), percent(l.from), percent(l.to));
      // A sweep from just below the lower of the two values to just above the higher, in steps
      // of the granularity, with at most about 16 points.
      const std::int64_t g = granule(c.variable, arch);
      const std::int64_t lo_v = std::min(l.current, l.value), hi_v = std::max(l.current, l.value);
      std::int64_t step = g;
      while ((hi_v - lo_v) / step > 14)
        step *= 2;
      const std::int64_t floor_lo = c.variable == occupancy_variable::shared_memory ? 0 : g;
      const std::int64_t lo = std::max(floor_lo, lo_v / step * step - step);
      std::int64_t hi = (hi_v + step - 1) / step * step + step;
      if (c.maximum > 0)
        hi = std::min(hi, c.maximum);
      l.sweep = std::string(sweep_name(c.variable));
      l.range = fmt::format("{}:{}:{}", lo, hi, step);
      out.push_back(std::move(l));
    }
  }
  return out;
}

} // namespace roofkit

// The cliffs nearest a launch as one line each, with the sweep range that would measure them;
// the answer-first summary that lists them.
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "internal/text_util.hpp"
#include "roofkit/cliff.hpp"
#include "roofkit/occupancy.hpp"

namespace roofkit {

using detail::percent;
using detail::percent_short;

namespace {

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
      l.text =
          fmt::format("{}{} ({}): {} -> {}", l.distance > 0 ? "+" : "-",
                      amount_text(c.variable, std::llabs(l.distance)), at_text(c.variable, l.value),
                      percent_short(l.from), percent_short(l.to));
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

std::string occupancy_summary(const occupancy_target& target, const launch_params& launch,
                              const occupancy_result& r, const std::string& kernel,
                              const cliff_command& command) {
  const arch_spec& a = *target.arch;
  const std::string where = target_name(target);
  std::string out;
  if (!kernel.empty())
    out += kernel + "\n";
  out += fmt::format("Occupancy {} on {}: {} of {} warps per SM, {} block{} of {} threads.\n",
                     percent(r.occupancy), where, r.active_warps, a.max_warps_per_sm,
                     r.active_blocks, r.active_blocks == 1 ? "" : "s", launch.threads_per_block);
  if (r.active_blocks == 0) {
    out += "No block fits: " + r.reason + ".\n";
    return out;
  }
  out += fmt::format("Limited by: {}.\n", limiter_names(r.limiters));
  const auto cliffs = nearby_cliffs(a, launch);
  if (cliffs.empty()) {
    out += "No cliff nearby: no change of registers, block size or shared memory changes the "
           "block count.\n";
    return out;
  }
  out += "Nearest cliffs:\n";
  for (const auto& c : cliffs) {
    out += "  " + c.text + "\n";
    if (command)
      out += "      measure: " + command(kernel, c) + "\n";
  }
  return out;
}

std::string ptxas_summary(const std::vector<ptxas_kernel>& kernels, const occupancy_target& target,
                          const launch_params& base, const cliff_command& command) {
  std::string out;
  for (const auto& kernel : kernels) {
    const arch_spec& arch = target.arch ? *target.arch : find_arch(kernel.arch);
    const launch_params l = ptxas_launch(kernel, arch, base);
    occupancy_target t = target;
    t.arch = &arch;
    if (!out.empty())
      out += "\n";
    out += occupancy_summary(t, l, compute_occupancy(arch, l),
                             kernel.name.empty() ? kernel.mangled_name : kernel.name, command);
  }
  return out;
}

} // namespace roofkit

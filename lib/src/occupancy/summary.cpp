// The answer first: occupancy, what limits it and the nearest cliffs, in a few lines.
#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "roofkit/occupancy.hpp"

namespace roofkit {

namespace {

std::string percent(double occupancy) { return fmt::format("{:.1f}%", occupancy * 100); }

} // namespace

std::string occupancy_summary(const occupancy_target& target, const launch_params& launch,
                              const occupancy_result& r, const std::string& kernel,
                              const cliff_command& command) {
  const arch_spec& a = *target.arch;
  std::string where = fmt::format("{} ({}, CC {})", a.id(), a.family, a.cc());
  if (!target.gpu_name.empty())
    where = target.gpu_name + ", " + where;
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

} // namespace roofkit

namespace roofkit {

std::string ptxas_summary(const std::vector<ptxas_kernel>& kernels, const occupancy_target& target,
                          const launch_params& base, const cliff_command& command) {
  std::string out;
  for (const auto& kernel : kernels) {
    const arch_spec& arch = target.arch ? *target.arch : find_arch(kernel.arch);
    launch_params l = base;
    l.registers_per_thread = kernel.registers;
    l.static_smem = kernel.static_smem;
    if (kernel.barriers >= 0)
      l.barriers = kernel.barriers;
    validate_launch(arch, l);
    occupancy_target t = target;
    t.arch = &arch;
    if (!out.empty())
      out += "\n";
    out += occupancy_summary(t, l, compute_occupancy(arch, l),
                             kernel.name.empty() ? kernel.mangled_name : kernel.name, command);
  }
  return out;
}

std::string ptxas_arch_mismatch(const std::vector<ptxas_kernel>& kernels,
                                const occupancy_target& target) {
  if (!target.arch)
    return {};
  std::vector<std::string> others;
  std::size_t count = 0;
  for (const auto& k : kernels) {
    // "sm_90a" is compiled for sm_90: compare without the a/f suffix.
    std::string arch = k.arch;
    while (!arch.empty() && std::isalpha(static_cast<unsigned char>(arch.back())))
      arch.pop_back();
    std::string id = target.arch->id();
    while (!id.empty() && std::isalpha(static_cast<unsigned char>(id.back())))
      id.pop_back();
    if (arch.empty() || arch == id)
      continue;
    ++count;
    if (std::find(others.begin(), others.end(), k.arch) == others.end())
      others.push_back(k.arch);
  }
  if (count == 0)
    return {};
  return fmt::format("the ptxas log compiled {} of {} kernel{} for {}, but the numbers are for {} "
                     "({}): recompile for {} for its register and shared-memory counts",
                     count, kernels.size(), kernels.size() == 1 ? "" : "s",
                     fmt::format("{}", fmt::join(others, ", ")), target.arch->id(), target.origin,
                     target.arch->id());
}

} // namespace roofkit

#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "roofkit/run.hpp"

namespace roofkit {

/// Where one kernel sits against one memory level.
struct level_point {
  memory_level level;
  double bytes = 0;
  double intensity = 0;         ///< FLOP per byte at this level (0 when the kernel has no FLOPs)
  double achieved_bandwidth = 0; ///< bytes/s
  double attainable_flops = 0;  ///< min(compute roof, intensity x bandwidth roof), FLOP/s
  double ridge_intensity = 0;   ///< compute roof / bandwidth roof
};

/// The placement of one kernel under the roofs (the roofline model's answer).
struct kernel_placement {
  std::string name;
  double total_flops = 0;
  double achieved_flops = 0;     ///< FLOP/s
  std::optional<precision> dominant_precision; ///< the precision whose roof applies
  std::vector<level_point> levels;  ///< one per level with data
  std::string bound;             ///< binding ceiling: "dram", "l2", "l1", "fp32", ...
  double pct_of_roof = 0;        ///< achieved / attainable at the binding level (0..100+)
  double ridge_distance = 0;     ///< log10(intensity / ridge) at the binding level
  bool analytical = false;
  bool failed = false;
};

/// Analyses every kernel of a run against its ceilings.
std::vector<kernel_placement> analyze(const run& r);
/// Analyses one kernel against the given ceilings.
kernel_placement place_kernel(const kernel_result& k, const std::vector<ceiling>& ceilings);

} // namespace roofkit

#pragma once
// roofkit/roofline.hpp: the roofline model: ceilings, intensity, placement.

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
  double intensity = 0;          ///< FLOP per byte at this level (0 when the kernel has no FLOPs)
  double achieved_bandwidth = 0; ///< bytes/s
  double attainable_flops = 0;   ///< min(compute roof, intensity x bandwidth roof), FLOP/s
  double ridge_intensity = 0;    ///< compute roof / bandwidth roof (0 when either is unknown)
  // Added fields (compatible extension):
  bool has_ceiling = false;  ///< a bandwidth ceiling exists for this level
  double bandwidth_roof = 0; ///< the level's bandwidth ceiling, bytes/s (0 when unknown)
  double utilisation = 0;    ///< achieved_bandwidth / bandwidth_roof (0..1+; 0 when unknown)
  double lower_bound_s = 0;  ///< bytes / bandwidth_roof: the least time this level allows
};

/// The placement of one kernel under the roofs (the roofline model's answer).
struct kernel_placement {
  std::string name;
  double total_flops = 0;
  double achieved_flops = 0;                   ///< FLOP/s
  std::optional<precision> dominant_precision; ///< the precision whose roof applies
  std::vector<level_point> levels;             ///< one per level with data
  std::string bound;      ///< binding ceiling: "dram", "l2", "l1", "fp32", ...; "unknown" if none
  double pct_of_roof = 0; ///< achieved / attainable at the binding level (0..100+)
  double ridge_distance = 0; ///< log10(intensity / ridge) at ridge_level (0 without FLOPs)
  bool analytical = false;
  bool failed = false;
  // Added fields (compatible extension):
  double time_s = 0;                ///< the kernel time used (median)
  bool has_flops = false;           ///< false for copies: placed on bandwidth only
  bool compute_bound = false;       ///< the binding ceiling is a compute roof
  bool mixed_precision = false;     ///< FLOPs in more than one precision (combined roof used)
  double compute_roof = 0;          ///< FLOP/s roof for this kernel's mix (0 when unknown)
  double compute_lower_bound_s = 0; ///< sum over precisions of flops / peak
  double attainable_flops = 0;      ///< min(compute roof, every level's roof), FLOP/s
  std::optional<memory_level> ridge_level; ///< the most limiting memory level with a ceiling
  std::string bound_label;        ///< human label of the binding ceiling ("DRAM", "FP32", ...)
  std::vector<std::string> notes; ///< why something could not be placed, missing ceilings
  /// The SM clock every SM-clocked roof was scaled to for this kernel (the kernel's own clock
  /// from its counters); 0 when the run's roofs were used at their own clocks.
  double roof_sm_clock_mhz = 0;
};

/// The point of a placement at one memory level; nullptr when the kernel has no bytes there.
const level_point* find_level(const kernel_placement& p, memory_level l);

/// The ceilings at another SM clock: compute, L1 and L2 roofs (which scale with the SM clock)
/// are multiplied by sm_clock_mhz / their own clock; DRAM roofs and roofs without a clock are
/// kept. sm_clock_mhz <= 0 returns the ceilings unchanged.
std::vector<ceiling> ceilings_at_clock(const std::vector<ceiling>& ceilings, double sm_clock_mhz);

/// Analyses every kernel of a run against its ceilings, each at the kernel's own SM clock.
std::vector<kernel_placement> analyze(const run& r);
/// Analyses one kernel against the given ceilings.
kernel_placement place_kernel(const kernel_result& k, const std::vector<ceiling>& ceilings);

/// The compute ceiling used for a precision: a measured one is preferred over a theoretical one;
/// nullptr when the run has none (or only non-positive values).
const ceiling* find_compute_ceiling(const std::vector<ceiling>& ceilings, precision p);
/// The bandwidth ceiling used for a level (same preference as find_compute_ceiling).
const ceiling* find_memory_ceiling(const std::vector<ceiling>& ceilings, memory_level l);

/// The roof of a FLOP mix run one precision after another: total / sum(flops_p / peak_p).
/// 0 when a precision with FLOPs has no ceiling, or when there are no FLOPs.
double combined_compute_roof(const std::map<precision, double>& flops,
                             const std::vector<ceiling>& ceilings);

/// A kernel described by declared work and a measured time (counter-free, analytical mode).
kernel_result analytical_kernel(std::string name, std::map<precision, double> flops,
                                std::map<memory_level, double> bytes, double time_s);

} // namespace roofkit

// The walk over a sweep's values and the prediction at each point, shared by the sweeps of a
// registered kernel and of a program.
#include "sweep_point.hpp"

namespace roofkit::detail {

std::vector<cliff_point> sweep_points(const std::vector<std::int64_t>& values,
                                      const sweep_progress& progress,
                                      const std::function<cliff_point(std::int64_t)>& measure) {
  std::vector<cliff_point> points;
  for (const std::int64_t v : values) {
    if (progress)
      progress(points.size(), values.size(), v);
    points.push_back(measure(v));
  }
  if (progress)
    progress(points.size(), values.size(), values.back());
  return points;
}

occupancy_result predict_occupancy(const arch_spec& arch, cliff_point& p) {
  launch_params lp;
  lp.threads_per_block = p.block;
  lp.registers_per_thread = p.registers;
  lp.static_smem = p.static_smem;
  lp.dynamic_smem = p.dynamic_smem;
  const occupancy_result occ = compute_occupancy(arch, lp);
  p.occupancy_theoretical = occ.occupancy;
  p.active_blocks = occ.active_blocks;
  p.limiter = limiter_names(occ.limiters);
  return occ;
}

} // namespace roofkit::detail

// Sweeps: active warps against block size, registers and shared memory.
#include <algorithm>

#include "internal/occupancy_point.hpp"
#include "roofkit/occupancy.hpp"

namespace roofkit {

occupancy_sweep sweep_occupancy(const arch_spec& arch, const launch_params& launch,
                                occupancy_variable variable) {
  occupancy_sweep s;
  s.variable = variable;
  s.max_warps_per_sm = arch.max_warps_per_sm;
  std::vector<std::int64_t> values;
  std::int64_t current = 0;
  switch (variable) {
  case occupancy_variable::block_size:
    current = launch.threads_per_block;
    for (int t = arch.warp_size; t <= arch.max_threads_per_block; t += arch.warp_size)
      values.push_back(t);
    break;
  case occupancy_variable::registers:
    current = launch.registers_per_thread;
    for (int r = 1; r <= arch.max_registers_per_thread; ++r)
      values.push_back(r);
    break;
  case occupancy_variable::shared_memory: {
    current = launch.static_smem + launch.dynamic_smem;
    const std::int64_t unit = arch.shared_memory_allocation_unit;
    const std::int64_t reserved = arch.reserved_shared_memory_per_block;
    const std::int64_t lo = launch.static_smem;
    const std::int64_t hi = arch.shared_memory_per_block_optin;
    values.push_back(lo);
    // The last byte of each allocation step: the chart steps exactly where blocks change.
    for (std::int64_t a = unit; a - reserved <= hi; a += unit)
      if (a - reserved > lo)
        values.push_back(a - reserved);
    break;
  }
  }
  if (current > 0 || variable == occupancy_variable::shared_memory)
    values.push_back(current);
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  s.points.reserve(values.size());
  for (std::int64_t v : values)
    s.points.push_back(detail::occupancy_at(arch, launch, variable, v));
  s.current = detail::occupancy_at(arch, launch, variable, current);
  return s;
}

} // namespace roofkit

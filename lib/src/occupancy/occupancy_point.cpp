#include "internal/occupancy_point.hpp"

namespace roofkit::detail {

occupancy_point occupancy_at(const arch_spec& arch, launch_params l, occupancy_variable v,
                             std::int64_t value) {
  switch (v) {
  case occupancy_variable::block_size:
    l.threads_per_block = static_cast<int>(value);
    break;
  case occupancy_variable::registers:
    l.registers_per_thread = static_cast<int>(value);
    break;
  case occupancy_variable::shared_memory:
    l.dynamic_smem = value - l.static_smem;
    break;
  }
  const auto r = compute_occupancy(arch, l, false);
  return {value, r.active_blocks, r.active_warps, r.occupancy, r.limiters};
}

} // namespace roofkit::detail

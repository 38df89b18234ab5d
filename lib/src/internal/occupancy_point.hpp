#pragma once
// The occupancy of a launch with one of its values changed (sweeps and cliffs; not public).
#include <cstdint>

#include "roofkit/occupancy.hpp"

namespace roofkit::detail {

/// The occupancy point of `l` with the value of `v` set to `value` (for shared memory, the
/// static + dynamic bytes per block).
occupancy_point occupancy_at(const arch_spec& arch, launch_params l, occupancy_variable v,
                             std::int64_t value);

} // namespace roofkit::detail

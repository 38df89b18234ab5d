#pragma once
// What every cliff sweep does the same way (not public): the walk over the swept values with its
// progress, and the occupancy engine's prediction at a point.
#include <cstdint>
#include <functional>
#include <vector>

#include "roofkit/arch.hpp"
#include "roofkit/cliff.hpp"
#include "roofkit/occupancy.hpp"

namespace roofkit::detail {

using sweep_progress = std::function<void(std::size_t done, std::size_t total, std::int64_t value)>;

/// `measure` at every value, in order, `progress` (when set) told before each value and once at
/// the end. `values` is not empty.
std::vector<cliff_point> sweep_points(const std::vector<std::int64_t>& values,
                                      const sweep_progress& progress,
                                      const std::function<cliff_point(std::int64_t)>& measure);

/// Fills the prediction of `p` (theoretical occupancy, active blocks, limiter) from its block,
/// registers, static and dynamic shared memory; returns the engine's result.
occupancy_result predict_occupancy(const arch_spec& arch, cliff_point& p);

} // namespace roofkit::detail

#pragma once
// How occupancy-calc learns the target GPU: --arch, --gpu NAME or --device N.
// --gpu and --device go through the device model (data/gpus.json, live query).
#include <string_view>

#include "roofkit/occupancy.hpp"

namespace occupancy_calc {

/// --arch sm_90 / 9.0: the architecture alone (SM count unknown).
roofkit::occupancy_target target_from_arch(std::string_view arch);

/// --gpu "H100 SXM": case-insensitive, an exact name or an unambiguous prefix; throws
/// usage_error listing the candidates.
roofkit::occupancy_target target_from_gpu(std::string_view name);

/// --device N: live query; no_device_error without a GPU, usage_error for a bad ordinal.
roofkit::occupancy_target target_from_device(int ordinal);

} // namespace occupancy_calc

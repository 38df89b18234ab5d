#pragma once
// Helpers shared by the chart back ends (not part of the public API).
#include <string>
#include <string_view>

#include "roofkit/plot.hpp"

namespace roofkit {

/// A coordinate with at most two decimals and no trailing zeros ("12.5", "3", "-0.25").
std::string num(double v);

/// The SVG path of a marker centred on (0,0).
std::string marker_path(marker_shape shape, double size);

} // namespace roofkit

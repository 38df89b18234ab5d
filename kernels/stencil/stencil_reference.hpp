#pragma once
// CPU reference of 3-point smoothing (host C++ only).
#include <span>

namespace roofkit::kernels {

/// out[i] = (in[i-1] + in[i] + in[i+1]) / 3 for 0 < i < n-1, summed left to right in float;
/// out[0] and out[n-1] are left as they are.
void smooth_reference(std::span<const float> in, std::span<float> out);

} // namespace roofkit::kernels

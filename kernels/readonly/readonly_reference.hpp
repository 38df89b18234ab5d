#pragma once
// CPU reference of the read-only path kernels (host C++ only).
#include <span>

namespace roofkit::kernels {

/// out[i] = sum over k < w.size() of w[k] in[i + k], accumulated in order from 0 with every
/// product and sum rounded to float; out.size() = in.size() - w.size() + 1.
void weighted_window_reference(std::span<const float> in, std::span<const float> w,
                               std::span<float> out);

} // namespace roofkit::kernels

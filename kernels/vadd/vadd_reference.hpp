#pragma once
// CPU reference of vector addition (host C++ only).
#include <span>

namespace roofkit::kernels {

/// c[i] = a[i] + b[i].
void add_reference(std::span<const float> a, std::span<const float> b, std::span<float> c);

} // namespace roofkit::kernels

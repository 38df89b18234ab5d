#pragma once
// CPU references of the global-memory kernels (host C++ only).
#include <cstdint>
#include <span>

namespace roofkit::kernels {

/// out[t] = 2 in[(t * stride) mod n] for t < n = in.size() = out.size().
void strided_scale_reference(std::span<const float> in, std::span<float> out, std::int64_t stride);

/// out[i] = a in[i] + b (one rounding: the product by 2 is exact, so this equals an FMA).
void affine_reference(std::span<const float> in, std::span<float> out, float a, float b);

} // namespace roofkit::kernels

namespace roofkit::kernels {

/// out[i] = factor * in[i].
void scale_reference(std::span<const float> in, std::span<float> out, float factor);

} // namespace roofkit::kernels

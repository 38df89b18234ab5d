#include "global/global_reference.hpp"

namespace roofkit::kernels {

void strided_scale_reference(std::span<const float> in, std::span<float> out, std::int64_t stride) {
  const auto n = static_cast<std::uint64_t>(in.size());
  for (std::uint64_t t = 0; t < out.size(); ++t)
    out[t] = 2.0f * in[(t * static_cast<std::uint64_t>(stride)) % n];
}

void affine_reference(std::span<const float> in, std::span<float> out, float a, float b) {
  for (std::size_t i = 0; i < in.size(); ++i)
    out[i] = in[i] * a + b;
}

} // namespace roofkit::kernels

namespace roofkit::kernels {

void scale_reference(std::span<const float> in, std::span<float> out, float factor) {
  for (std::size_t i = 0; i < in.size(); ++i)
    out[i] = factor * in[i];
}

} // namespace roofkit::kernels

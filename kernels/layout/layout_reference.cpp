#include "layout/layout_reference.hpp"

#include "layout/layout_kernels.hpp"

namespace roofkit::kernels {

float luma_reference(float r, float g, float b) {
  const float pr = luma_r * r, pg = luma_g * g, pb = luma_b * b;
  const float s = pr + pg;
  return s + pb;
}

} // namespace roofkit::kernels

#pragma once
// CPU reference of the luminance kernels (host C++ only).
namespace roofkit::kernels {

/// 0.299 r + 0.587 g + 0.114 b, each product and sum rounded to float in that order.
float luma_reference(float r, float g, float b);

} // namespace roofkit::kernels

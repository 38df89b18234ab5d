#pragma once
// CPU references of the reductions (host C++ only).
#include <span>

namespace roofkit::kernels {

/// Sum of x, accumulated in double (exact for the suite's integer-valued data).
double sum_reference(std::span<const float> x);
/// Sum of x[i] y[i], products and sum in double.
double dot_reference(std::span<const float> x, std::span<const float> y);

} // namespace roofkit::kernels

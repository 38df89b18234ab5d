#pragma once
// Comparisons of a kernel's outputs with its CPU reference, producing a verification.
#include <cstddef>
#include <functional>
#include <span>
#include <string>

#include "roofkit/registry.hpp"

namespace roofkit::kernels {

/// Elementwise |got - want| <= atol + rtol * |want|; a NaN or infinity in `got` fails.
/// `what` names the compared values in the message ("out[i] = 2 in[i]").
verification compare_close(std::span<const float> got, std::span<const float> want, double atol,
                           double rtol, const std::string& what);

/// Bitwise equality (copies, transfers, exact integer sums).
verification compare_exact(std::span<const float> got, std::span<const float> want,
                           const std::string& what);

/// Compares got[i] with want(i) for the first `first` elements and `others` further random ones
/// (for kernels whose CPU reference is too slow to run on every element).
verification compare_sampled(std::span<const float> got,
                             const std::function<float(std::size_t)>& want, std::size_t first,
                             std::size_t others, double atol, double rtol, const std::string& what);

/// One scalar result against its reference.
verification compare_scalar(double got, double want, double atol, const std::string& what);

/// Checks that every value in `values` still holds the poison bit pattern (0xFFFFFFFF).
verification expect_poison(std::span<const float> values, const std::string& what);

/// Combines two verifications: ok when both are; messages joined.
verification both(verification a, const verification& b);

} // namespace roofkit::kernels

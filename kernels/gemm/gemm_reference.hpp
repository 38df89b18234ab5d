#pragma once
// CPU reference of the GEMM kernels (Eigen; host C++ only).
#include <cstdint>
#include <span>

#include "roofkit/registry.hpp"

namespace roofkit::kernels {

/// C = A B for row-major n x n matrices, with Eigen in single precision.
void gemm_reference(std::span<const float> a, std::span<const float> b, std::span<float> c,
                    std::int64_t n);

/// The tolerance of an element of C: 2e-6 n + 1e-5 (inputs in [-1, 1)).
double gemm_tolerance(std::int64_t n);

/// Checks C against A B: every element against Eigen when n <= full_check_limit; above it, 64
/// random rows against Eigen and every row by Freivalds' test (C x = A (B x) for a random +-1
/// vector x, in double, tolerance 1e-6 n^1.5).
verification check_gemm(std::span<const float> a, std::span<const float> b,
                        std::span<const float> c, std::int64_t n,
                        std::int64_t full_check_limit = 2048);

} // namespace roofkit::kernels

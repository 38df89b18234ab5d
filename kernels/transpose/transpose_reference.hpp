#pragma once
// CPU reference of the transpose kernels (host C++ only).
#include <cstdint>
#include <span>

namespace roofkit::kernels {

/// out[j][i] = in[i][j] for row-major n x n matrices (blocked, to stay cache-friendly).
void transpose_reference(std::span<const float> in, std::span<float> out, std::int64_t n);

} // namespace roofkit::kernels

#pragma once
// Matrix transpose, out = in^T for row-major N x N matrices (transpose_kernels.cu). Every
// kernel works on 32 x 32 tiles with blocks of 32 x 8 threads (4 rows per thread), any N.
#include <cuda_runtime_api.h>

#include "roofkit/run.hpp"

namespace roofkit::kernels {

/// The variants: a copy of the same size (bandwidth reference), the naive transpose (coalesced
/// writes, strided reads), through a [32][32] shared tile (32-way bank conflicts on the column
/// reads) and through a padded [32][33] tile (no conflicts).
enum class transpose_variant { copy, naive, shared, padded };

inline constexpr int transpose_tile = 32;
inline constexpr int transpose_block_rows = 8;

void launch_transpose(const launch_config& lc, transpose_variant v, const float* in, float* out,
                      int n, cudaStream_t stream);

const void* transpose_function(transpose_variant v);

} // namespace roofkit::kernels

#pragma once
// Square single-precision GEMM, C = A B for row-major N x N matrices (gemm_kernels.cu).
#include <cuda_runtime_api.h>

#include "roofkit/run.hpp"

namespace roofkit::kernels {

/// tile 0: naive (one thread per C element, rows of A and columns of B from global memory);
/// tile 16 or 32: shared-memory tiles of tile x tile, any n (edge tiles are zero-padded).
void launch_gemm(const launch_config& lc, int tile, const float* a, const float* b, float* c, int n,
                 cudaStream_t stream);

const void* gemm_function(int tile);

} // namespace roofkit::kernels

#pragma once
// Warp divergence (divergence_kernels.cu): host launchers only.
#include <cuda_runtime_api.h>

#include "roofkit/run.hpp"

namespace roofkit::kernels {

inline constexpr int branch_iterations = 1024;

/// Each thread runs path A (x = 0.999 x + 0.001) or path B (x = x x - 0.25) branch_iterations
/// times on x = in[t] and writes out[t]. split = 0: warps alternate between A and B (no warp
/// diverges); split in 1..31: lanes below `split` take A, the others B (every warp diverges).
/// split in {0, 1, 8, 16, 24}.
void launch_branches(const launch_config& lc, int split, const float* in, float* out, unsigned n,
                     cudaStream_t stream);

const void* branches_function(int split);

} // namespace roofkit::kernels

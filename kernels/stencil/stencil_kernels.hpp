#pragma once
// 3-point smoothing out[i] = (in[i-1] + in[i] + in[i+1]) / 3 for 0 < i < n-1
// (stencil_kernels.cu); out[0] and out[n-1] are not written.
#include <cuda_runtime_api.h>

#include "roofkit/run.hpp"

namespace roofkit::kernels {

inline constexpr int stencil_block = 256;

/// shared = false: every thread reads its three inputs from global memory (the seed's
/// smooth_naive); true: a block stages its 256 inputs plus one halo element on each side in
/// shared memory first (smooth_shared), any n.
void launch_smooth(const launch_config& lc, bool shared, const float* in, float* out, int n,
                   cudaStream_t stream);

const void* smooth_function(bool shared);

} // namespace roofkit::kernels

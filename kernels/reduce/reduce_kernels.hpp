#pragma once
// Sum and dot-product reductions (reduce_kernels.cu): host launchers only.
//
// The one-kernel variants accumulate with atomicAdd into slot[parity] of a two-float buffer and
// zero slot[parity ^ 1] for the next run, so repeated runs need no memset between them (the
// caller starts with slot[0] = 0 and alternates the parity).
#include <cstddef>

#include <cuda_runtime_api.h>

#include "roofkit/run.hpp"

namespace roofkit::kernels {

enum class reduce_method {
  atomic,       ///< one atomicAdd per element
  shared_tree,  ///< shared-memory tree per block of 256, one atomicAdd per block
  warp_shuffle, ///< __shfl_down_sync within warps, then across the block's warps; one atomic
  two_pass,     ///< per-block partial sums (grid-stride), then one block reduces them
};

inline constexpr unsigned reduce_block = 256;
inline constexpr unsigned two_pass_max_blocks = 1024;

/// Sum of x[i] (y == nullptr) or of x[i] y[i] (dot product) for i < n.
/// One-kernel methods: result is the two-slot buffer, parity selects the slot.
/// two_pass: partials holds lc.grid[0] floats, the sum lands in result[0].
void launch_reduce(const launch_config& lc, reduce_method method, const float* x, const float* y,
                   float* result, float* partials, std::size_t n, unsigned parity,
                   cudaStream_t stream);

const void* reduce_function(reduce_method method, bool dot);

} // namespace roofkit::kernels

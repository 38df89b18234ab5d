#pragma once
// Global-memory access patterns (global_kernels.cu): host launchers only.
#include <cuda_runtime_api.h>

#include "roofkit/run.hpp"

namespace roofkit::kernels {

/// The seed's coalesced_access: out[t] = 2 in[t] for t < n.
void launch_coalesced(const launch_config& lc, const float* in, float* out, int n,
                      cudaStream_t stream);
/// out[t] = 2 in[(t * stride) mod n] for t < n; stride in {1, 2, 4, 8, 16, 32} (32 is the
/// seed's uncoalesced_access).
void launch_strided(const launch_config& lc, int stride, const float* in, float* out, unsigned n,
                    cudaStream_t stream);
/// out[t + offset] = 2 in[t + offset] for t < n (arrays of n + 32 floats).
void launch_offset(const launch_config& lc, int offset, const float* in, float* out, unsigned n,
                   cudaStream_t stream);
/// out[idx] = 2 in[idx] + 1 over a width x height row-major matrix, where a thread (row, col)
/// uses idx = row * width + col (row-major, coalesced) or col * height + row (column-major).
void launch_matrix(const launch_config& lc, bool column_major, const float* in, float* out,
                   int width, int height, cudaStream_t stream);

const void* coalesced_function();
const void* strided_function(int stride);
const void* offset_function();
const void* matrix_function(bool column_major);

} // namespace roofkit::kernels

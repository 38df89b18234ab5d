#pragma once
// Vector addition (vadd_kernels.cu): host launchers only.
#include <cstddef>

#include <cuda_runtime_api.h>

#include "roofkit/run.hpp"

namespace roofkit::kernels {

/// c[i] = a[i] + b[i], one element per thread with the boundary check `if (i < n)`.
void launch_vadd(const launch_config& lc, const float* a, const float* b, float* c, std::size_t n,
                 cudaStream_t stream);
/// The same with a grid-stride loop (any grid covers any n).
void launch_vadd_grid_stride(const launch_config& lc, const float* a, const float* b, float* c,
                             std::size_t n, cudaStream_t stream);

const void* vadd_function();
const void* vadd_grid_stride_function();

} // namespace roofkit::kernels

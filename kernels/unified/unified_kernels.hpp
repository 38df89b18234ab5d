#pragma once
// The unified-memory add (unified_kernels.cu): host launcher only.
#include <cstddef>

#include <cuda_runtime_api.h>

#include "roofkit/run.hpp"

namespace roofkit::kernels {

/// z[i] = x[i] + y[i], one element per thread (the seed's add, out of place).
void launch_managed_add(const launch_config& lc, const float* x, const float* y, float* z,
                        std::size_t n, cudaStream_t stream);

const void* managed_add_function();

} // namespace roofkit::kernels

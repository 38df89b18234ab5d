#pragma once
// The example suite's device code: host launchers only (no CUDA syntax in this header).
#include <cuda_runtime_api.h>

namespace example {

/// out[i] = a x[i] + y[i] for i < n, one element per thread.
void launch_saxpy(unsigned grid, unsigned block, float a, const float* x, const float* y,
                  float* out, int n, cudaStream_t stream);

/// The saxpy kernel's function, for cudaFuncGetAttributes and occupancy queries.
const void* saxpy_function();

} // namespace example

#pragma once
// Vectorised access (vector_kernels.cu): host launchers only.
#include <cstddef>

#include <cuda_runtime_api.h>

#include "roofkit/run.hpp"

namespace roofkit::kernels {

/// Grid-stride copy of n ints with loads and stores of `width` ints (1: int, 2: int2, 4: int4);
/// the n mod width tail elements are copied by the first threads, so any n works.
void launch_copy(const launch_config& lc, int width, const int* in, int* out, std::size_t n,
                 cudaStream_t stream);
/// out[i] = 2 in[i] for n float3 (12-byte) elements.
void launch_scale_float3(const launch_config& lc, const float* in, float* out, std::size_t n,
                         cudaStream_t stream);
/// out[i] = 2 in[i] for n float4 (16-byte) elements.
void launch_scale_float4(const launch_config& lc, const float* in, float* out, std::size_t n,
                         cudaStream_t stream);

const void* copy_function(int width);
const void* scale_float3_function();
const void* scale_float4_function();

} // namespace roofkit::kernels

#pragma once
// Array of structures vs structure of arrays (layout_kernels.cu): host launchers only.
#include <cstddef>

#include <cuda_runtime_api.h>

#include "roofkit/run.hpp"

namespace roofkit::kernels {

/// The colour weights of the luminance kernels.
inline constexpr float luma_r = 0.299f, luma_g = 0.587f, luma_b = 0.114f;

/// pixels: n structs {r, g, b} (AoS). all_fields: out[i] = luma of pixel i; else out[i] = 2 r.
void launch_aos(const launch_config& lc, bool all_fields, const float* pixels, float* out,
                std::size_t n, cudaStream_t stream);
/// r, g, b: three arrays of n floats (SoA); the same two computations.
void launch_soa(const launch_config& lc, bool all_fields, const float* r, const float* g,
                const float* b, float* out, std::size_t n, cudaStream_t stream);

const void* aos_function(bool all_fields);
const void* soa_function(bool all_fields);

} // namespace roofkit::kernels

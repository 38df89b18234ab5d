#pragma once
// The read-only data path (readonly_kernels.cu): host launchers only.
#include <cstddef>

#include <cuda_runtime_api.h>

#include "roofkit/run.hpp"

namespace roofkit::kernels {

inline constexpr int readonly_taps = 8;

/// out[i] = sum over k < 8 of w[k] in[i + k] (in has n + 7 floats; every thread of a warp reads
/// the same w[k]). plain: ordinary pointers; restrict: const __restrict__ pointers; ldg: __ldg
/// loads.
enum class readonly_variant { plain, restrict_pointers, ldg };

void launch_readonly(const launch_config& lc, readonly_variant v, const float* in, const float* w,
                     float* out, std::size_t n, cudaStream_t stream);

const void* readonly_function(readonly_variant v);

} // namespace roofkit::kernels

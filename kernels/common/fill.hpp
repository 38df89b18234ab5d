#pragma once
// Device-side fills (fill.cu): fresh random inputs and poisoned outputs. Host launchers only.
#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "common/random.hpp"

namespace roofkit::kernels {

/// Writes random_value(seed, i, kind) to p[i] for i < n, on `stream`.
void fill_random(float* p, std::size_t n, std::uint64_t seed, value_kind kind,
                 cudaStream_t stream = nullptr);

/// Fills `bytes` bytes with 0xFF: every float becomes NaN, every int -1.
void poison(void* p, std::size_t bytes, cudaStream_t stream = nullptr);

} // namespace roofkit::kernels

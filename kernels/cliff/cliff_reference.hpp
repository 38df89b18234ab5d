#pragma once
// CPU references of the cliff-sweep kernels (host C++ only).
#include <cstdint>
#include <span>

namespace roofkit::kernels {

/// What the chase writes for thread t: the sum, in order, of the `steps` values its chain loads.
float chase_reference(std::span<const float> table, std::uint32_t t, int steps);

/// What the FMA kernel writes for input x: `chains` chains a = fma(a, x / 2, 0.5) from a = k / 4,
/// `iterations` times each, summed in order.
float fma_reference(float x, int chains, int iterations);

} // namespace roofkit::kernels

#pragma once
// CPU reference of the register-cliff kernel (host C++ only).
#include <cstdint>
#include <span>

namespace roofkit::kernels {

/// What thread t of `threads` writes: in[t], in[t + threads], ... folded into k accumulators
/// (acc[j] = acc[j] x + acc[j+1 mod k] in order j = 0..k-1, from acc[j] = j / 8), then summed
/// in order; every operation rounded to float.
float fold_reference(std::span<const float> in, std::uint64_t t, std::uint64_t threads, int k);

} // namespace roofkit::kernels

#pragma once
// CPU reference of the bank-conflict kernel (host C++ only).
#include <span>

namespace roofkit::kernels {

/// out[t] = (a0 + a1) + (a2 + a3) where each a_k adds in[t] to itself reps / 4 times in float,
/// as the kernel does (exact for the integer-valued inputs it gets).
void repeated_sum_reference(std::span<const float> in, std::span<float> out, int reps);

} // namespace roofkit::kernels

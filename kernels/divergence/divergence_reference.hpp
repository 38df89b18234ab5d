#pragma once
// CPU references of the divergence kernels (host C++ only).
#include <cstdint>

namespace roofkit::kernels {

/// Whether thread t takes path A for the given split (see launch_branches).
bool takes_path_a(std::uint64_t t, int split);
/// x after `iterations` steps of path A (x = 0.999 x + 0.001) or B (x = x x - 0.25), rounded
/// to float after every operation.
float branch_reference(float x, bool path_a, int iterations);

} // namespace roofkit::kernels

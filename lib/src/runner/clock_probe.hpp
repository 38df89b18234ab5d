#pragma once
// Internal: the clock64() spin kernel of observe_sm_clock().
#include <cuda_runtime_api.h>

namespace roofkit::detail {

/// One block of one thread spins until `cycles` SM clocks have passed and writes the cycles it
/// saw to `elapsed` (device memory).
void launch_clock_probe(long long cycles, long long* elapsed, cudaStream_t stream);

} // namespace roofkit::detail

// The clock64() spin kernel of observe_sm_clock().
#include "internal/clock_probe.hpp"

namespace roofkit::detail {

namespace {
__global__ void clock_spin(long long cycles, long long* elapsed) {
  const long long start = clock64();
  long long now = start;
  while (now - start < cycles)
    now = clock64();
  *elapsed = now - start;
}
} // namespace

void launch_clock_probe(long long cycles, long long* elapsed, cudaStream_t stream) {
  clock_spin<<<1, 1, 0, stream>>>(cycles, elapsed);
}

} // namespace roofkit::detail

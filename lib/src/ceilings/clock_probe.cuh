#pragma once
// Device helpers shared by the ceiling kernels: the in-kernel clock sample and the check counter.
#include "ceiling_kernels.hpp"

namespace roofkit::ceiling_kernels {

__device__ __forceinline__ unsigned long long global_timer_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

/// Thread 0 of block 0 records the clock counter and the global timer in this launch's slot
/// (launches of one stream run one after the other, so only this thread touches the record).
__device__ __forceinline__ void clock_begin(clock_sample* s) {
  if (s && blockIdx.x == 0 && threadIdx.x == 0) {
    const auto i = s->launches % clock_sample::slots;
    s->time0[i] = global_timer_ns();
    s->clock0[i] = clock64();
  }
}

__device__ __forceinline__ void clock_end(clock_sample* s) {
  if (s && blockIdx.x == 0 && threadIdx.x == 0) {
    const auto i = s->launches % clock_sample::slots;
    s->clock1[i] = clock64();
    s->time1[i] = global_timer_ns();
    s->launches = s->launches + 1;
  }
}

/// Counts a failed check.
__device__ __forceinline__ void check_equal(bool ok, unsigned* errors) {
  if (!ok && errors)
    atomicAdd(errors, 1u);
}

} // namespace roofkit::ceiling_kernels

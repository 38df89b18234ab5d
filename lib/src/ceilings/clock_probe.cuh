#pragma once
// Device helpers shared by the ceiling kernels: the in-kernel clock sample and the check counter.
#include "ceiling_kernels.hpp"

namespace roofkit::ceiling_kernels {

// Both counters are read with a "memory" clobber: without it the compiler may move a loop of
// pure arithmetic across the reads (its results are only stored at the end), and the sample then
// covers a fraction of the work (seen on the H100: an FFMA loop's sample gave 1650-1750 MHz over
// a fifth of the block's lifetime while the SM ran at 1980 MHz).
__device__ __forceinline__ unsigned long long global_timer_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t) : : "memory");
  return t;
}

__device__ __forceinline__ unsigned long long sm_clock_count() {
  unsigned long long c;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c) : : "memory");
  return c;
}

/// A zero that the compiler cannot see through, read after the start sample: arithmetic that
/// depends on it cannot be hoisted above clock_begin.
__device__ __forceinline__ int opaque_zero() {
  int z;
  asm volatile("mov.u32 %0, 0;" : "=r"(z) : : "memory");
  return z;
}

/// Thread 0 of block 0 records the clock counter and the global timer in this launch's slot
/// (launches of one stream run one after the other, so only this thread touches the record).
__device__ __forceinline__ void clock_begin(clock_sample* s) {
  if (s && blockIdx.x == 0 && threadIdx.x == 0) {
    const auto i = s->launches % clock_sample::slots;
    s->time0[i] = global_timer_ns();
    s->clock0[i] = sm_clock_count();
  }
}

__device__ __forceinline__ void clock_end(clock_sample* s) {
  if (s && blockIdx.x == 0 && threadIdx.x == 0) {
    const auto i = s->launches % clock_sample::slots;
    s->clock1[i] = sm_clock_count();
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

#pragma once
// Device helpers shared by the ceiling kernels: the in-kernel clock sample and the check counter.
#include "ceiling_kernels.hpp"

namespace roofkit::ceiling_kernels {

// Both counters are read with a "memory" clobber, so that no load or store of the kernel moves
// across a read.
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

/// One point in time on both counters: the clock counter read on either side of the global
/// timer, so that a warp descheduled between two reads (an issue-bound kernel can starve it for a
/// large part of its run) moves the point, not the pairing of the two counters.
struct clock_point {
  unsigned long long clock, time;
};

__device__ __forceinline__ clock_point read_clock_point() {
  const unsigned long long before = sm_clock_count();
  const unsigned long long time = global_timer_ns();
  const unsigned long long after = sm_clock_count();
  return {before + (after - before) / 2, time};
}

/// Thread 0 of block 0 records the clock counter and the global timer in this launch's slot
/// (launches of one stream run one after the other, so only this thread touches the record).
/// Both counters are read before the slot index is loaded, so no memory wait falls between them.
__device__ __forceinline__ void clock_begin(clock_sample* s) {
  if (s && blockIdx.x == 0 && threadIdx.x == 0) {
    const clock_point p = read_clock_point();
    const auto i = s->launches % clock_sample::slots;
    s->time0[i] = p.time;
    s->clock0[i] = p.clock;
  }
}

__device__ __forceinline__ void clock_end(clock_sample* s) {
  if (s && blockIdx.x == 0 && threadIdx.x == 0) {
    const clock_point p = read_clock_point();
    const auto i = s->launches % clock_sample::slots;
    s->clock1[i] = p.clock;
    s->time1[i] = p.time;
    s->launches = s->launches + 1;
  }
}

/// Counts a failed check.
__device__ __forceinline__ void check_equal(bool ok, unsigned* errors) {
  if (!ok && errors)
    atomicAdd(errors, 1u);
}

} // namespace roofkit::ceiling_kernels

#pragma once
// The timing harness: warm-up, CUDA events, N repetitions, median/min/max, optional L2 flush,
// and the SM clock observed. No CUPTI: times are taken apart from replayed counter passes.
// Safe to include from .cu files (no fmt, no JSON).
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "roofkit/run.hpp"

namespace roofkit {

/// How to time a kernel.
struct timing_options {
  int device = 0;
  int warmup = 3;            ///< untimed launches first (module load, clocks ramping up)
  int repetitions = 20;      ///< timed launches, each between its own pair of events
  bool flush_l2 = false;     ///< write a buffer of twice the L2 size before every launch (untimed)
  bool observe_clock = true; ///< measure the SM clock right after the timed launches
  cudaStream_t stream = nullptr;
};

/// The SM clock and how it was obtained.
struct clock_reading {
  double mhz = 0;
  std::string method; ///< "clock64 probe" (measured) or "cudaDevAttrClockRate" (peak, fallback)
};

/// What the harness measured.
struct timing_result {
  timing time;                   ///< median, min, max, repetitions (run.hpp)
  std::vector<double> samples_s; ///< every repetition, in order
  clock_reading sm_clock;        ///< observed after the repetitions (when asked)
  bool l2_flushed = false;
};

/// Launches the work to time on the given stream (one or more kernels).
using launch_fn = std::function<void(cudaStream_t)>;

/// Times `launch`: warm-up, then `repetitions` launches each bracketed by events; the L2 flush,
/// when asked, runs before each launch outside the events. Throws roofkit::error on CUDA errors.
timing_result time_kernel(const launch_fn& launch, const timing_options& options = {});

/// Median, min, max and count of samples (seconds). Empty input gives zeros.
timing summarize_samples(std::vector<double> samples);

/// Measures the SM clock: a one-block kernel spins for two known numbers of clock64() cycles;
/// cycles over event time, differenced to cancel the launch overhead. Falls back to the peak
/// clock from cudaDevAttrClockRate when the probe gives no sensible value.
clock_reading observe_sm_clock(int device = 0, cudaStream_t stream = nullptr);

/// A device buffer larger than the L2 cache; flush() overwrites it to evict what a kernel left
/// in L2 (dirty lines are written back, clean ones replaced).
class l2_flusher {
public:
  explicit l2_flusher(int device = 0);
  ~l2_flusher();
  l2_flusher(const l2_flusher&) = delete;
  l2_flusher& operator=(const l2_flusher&) = delete;
  /// Enqueues the overwrite on `stream`.
  void flush(cudaStream_t stream = nullptr);
  /// Size of the buffer (2 x L2).
  std::size_t bytes() const { return bytes_; }

private:
  void* buffer_ = nullptr;
  std::size_t bytes_ = 0;
  unsigned value_ = 0;
};

} // namespace roofkit

#pragma once
// roofkit/timing.hpp: the timing harness: warm-up, events, medians, cache flush, clocks.

#include <cstddef>
#include <cuda_runtime_api.h>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "roofkit/run.hpp"

// The timing harness: warm-up, CUDA events, N repetitions, median/min/max, optional L2 flush,
// and the SM clock observed. No CUPTI: times are taken apart from replayed counter passes.
// Safe to include from .cu files (no fmt, no JSON).
namespace roofkit {

/// Launches the work to time on the given stream (one or more kernels).
using launch_fn = std::function<void(cudaStream_t)>;

class l2_flusher;

/// How to time a kernel.
struct timing_options {
  int device = 0;
  int warmup = 3;        ///< untimed launches first (module load, clocks ramping up)
  int repetitions = 20;  ///< timed launches, each between its own pair of events
  bool flush_l2 = false; ///< cold: write back and invalidate the L2 before every launch (untimed)
  /// Warm timing of short kernels: launches per event pair are raised until a pair spans at
  /// least this long, so that launch overhead does not dominate (0: one launch per pair).
  double min_batch_s = 200e-6;
  bool observe_clock = true; ///< measure the SM clock right after the timed launches
  cudaStream_t stream = nullptr;
  /// When set, runs before every launch (warm-up and timed), outside the events, and the timed
  /// launches wait for it to finish: state a launch consumes (e.g. unified memory moved back to
  /// the host). Each sample is then one launch and the L2 is not flushed.
  launch_fn prepare;
  /// The flusher for flush_l2 (a caller timing many kernels keeps one); null: one is made for
  /// the call.
  l2_flusher* flusher = nullptr;
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
  int launches_per_sample = 1; ///< launches between each pair of events (samples are per launch)
};

/// Times `launch`: warm-up, then `repetitions` launches each bracketed by events; the L2 flush,
/// when asked, runs before each launch outside the events. Throws roofkit::error on CUDA errors.
timing_result time_kernel(const launch_fn& launch, const timing_options& options = {});

/// Median, min, max and count of samples (seconds). Empty input gives zeros.
timing summarize_samples(std::vector<double> samples);

/// Measures the SM clock: a one-block kernel spins for two known numbers of clock64() cycles;
/// cycles over event time, differenced to cancel the launch overhead. Falls back to the peak
/// clock from cudaDevAttrClockRate when the probe gives no sensible value.
clock_reading observe_sm_clock(int device = 0, cudaStream_t stream = nullptr);

/// Cache control: flush() writes back and invalidates what kernels left in the L2. It reads a
/// zeroed buffer of four times the L2 size (every earlier line is evicted, dirty ones written
/// back), then, with `invalidate` (sm_80+), discards the buffer's own lines from the L2
/// (discard.global.L2), so the L2 holds no valid line at all, as after Nsight Compute's cache
/// control. Without it the L2 is left holding clean lines of the buffer, which no measured
/// kernel reads. Either way no dirty line and no line of anyone's data is left.
/// With invalidation, the two sweeps are one cooperative kernel launch where the device allows
/// it (a grid-wide barrier between them), else two launches.
class l2_flusher {
public:
  explicit l2_flusher(int device = 0, bool invalidate = true);
  ~l2_flusher();
  l2_flusher(const l2_flusher&) = delete;
  l2_flusher& operator=(const l2_flusher&) = delete;
  /// Enqueues the flush on `stream`: launches() kernel launches.
  void flush(cudaStream_t stream = nullptr);
  /// Kernel launches one flush() enqueues: 1, or 2 for an invalidation without cooperative launch.
  int launches() const { return invalidate_ && cooperative_blocks_ == 0 ? 2 : 1; }
  /// Size of the buffer (4 x L2).
  std::size_t bytes() const { return bytes_; }

private:
  void* buffer_ = nullptr;
  unsigned* sink_ = nullptr;
  std::size_t bytes_ = 0;
  int blocks_ = 0;
  int cooperative_blocks_ = 0; ///< > 0: both sweeps in one cooperative launch of this many blocks
  unsigned value_ = 0;
  bool invalidate_ = true;
};

/// Clock control "base": locks the device's SM clock to its base (default application) clock
/// through NVML for the lifetime of the object and unlocks it after. Never throws for a refusal:
/// locked() says whether it worked and message() says why not (no NVML, no permission).
class clock_lock {
public:
  explicit clock_lock(int device = 0);
  ~clock_lock();
  clock_lock(const clock_lock&) = delete;
  clock_lock& operator=(const clock_lock&) = delete;
  bool locked() const { return locked_; }
  double mhz() const { return mhz_; }
  const std::string& message() const { return message_; }

private:
  struct state;
  std::unique_ptr<state> state_;
  bool locked_ = false;
  double mhz_ = 0;
  std::string message_;
};

/// Clock control of a run (as Nsight Compute's --clock-control).
enum class clock_control {
  base, ///< lock each device's SM clock to its base clock (needs permission)
  none, ///< lock nothing: each kernel's roofs at the clock it ran at
};
/// "base" / "none".
std::string to_string(clock_control c);
/// Parses "base" / "none"; throws usage_error "clock control 'x' is not valid (valid: base, none)".
clock_control parse_clock_control(std::string_view text);

/// A run's clock control in force: the locks it holds ("base") and what it did, for the run.
struct clock_control_state {
  std::vector<std::unique_ptr<clock_lock>> locks; ///< released (clocks unlocked) on destruction
  std::string note; ///< the locked clock of each device, or that nothing is locked
};

/// Applies clock control `mode` to `devices`: base locks each device's SM clock to its base
/// clock (clock_lock), none locks nothing. Throws no_device_error, naming the device and the
/// reason, when a lock is refused (nothing stays locked then).
clock_control_state apply_clock_control(clock_control mode, const std::vector<int>& devices);

} // namespace roofkit

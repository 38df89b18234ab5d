#pragma once
// What the ceiling measurements share: the device, timing options, the in-kernel clock sample
// and check counter, and the run loop (timed, calibrated, sustained).
#include <cstddef>
#include <functional>
#include <string>

#include <cuda_runtime_api.h>

#include "ceiling_kernels.hpp"
#include "roofkit/ceilings.hpp"
#include "roofkit/core.hpp"
#include "roofkit/timing.hpp"

namespace roofkit::ceilings_detail {

/// A device allocation freed on scope exit.
struct device_buffer {
  void* ptr = nullptr;
  explicit device_buffer(std::size_t bytes) { ROOFKIT_CUDA_CHECK(cudaMalloc(&ptr, bytes)); }
  ~device_buffer() { cudaFree(ptr); }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  template <class T> T* as() const { return static_cast<T*>(ptr); }
};

/// A launch that the clock sample and check counter go with.
using shaped_launch = std::function<void(const ceiling_kernels::shape&)>;

/// The median SM clock over the last `last` launches recorded in `c` (at most its slots; 0 when
/// none has a usable sample).
double median_clock_mhz(const ceiling_kernels::clock_sample& c, unsigned long long last);

/// The median span of block 0 on the global timer (seconds) over the last `last` launches
/// recorded in `c` (0 when none has a usable sample).
double median_span_s(const ceiling_kernels::clock_sample& c, unsigned long long last);

/// Why a launch's event time cannot be right (""): block 0 alone ran longer on the in-kernel
/// global timer than the whole launch between its events.
std::string event_span_check(double event_median_s, double span_median_s);

/// Why the GPU's time source cannot be right (""): `launches` back-to-back launches took
/// `host_s` on the host's steady clock but only `event_s` between CUDA events. The host interval
/// holds the event one, plus a submission and a wake-up (under `slack_s`).
std::string host_clock_check(double event_s, double host_s, int launches, double slack_s = 3e-4);

/// One timed measurement: time statistics, the median clock of its launches, failed checks.
struct timed {
  timing time;
  double sm_clock_mhz = 0;
  unsigned errors = 0;
  std::string time_check; ///< "" or why the event time disagrees with the in-kernel timer
};

class measure_context {
public:
  measure_context(const ceilings_options& options, int repetitions);
  const cudaDeviceProp& prop() const { return prop_; }
  int sms() const { return prop_.multiProcessorCount; }
  int repetitions() const { return repetitions_; }
  int device() const { return options_.device; }
  bool quick() const { return options_.quick; }
  double sustained_s() const { return sustained_s_; }

  /// Warm-up, `repetitions` event-timed launches, clock and check counter read back.
  timed run(const shaped_launch& launch, int blocks, int threads, int warmup = 2, int reps = 0);
  /// Iterations so that one launch takes about `target_s` (from a short trial launch).
  int calibrate(const std::function<void(const ceiling_kernels::shape&, int)>& launch, int blocks,
                int threads, double target_s, int trial_iterations, int max_iterations);
  /// Runs `launch` back to back for sustained_s(), then times it: rate and clock at the end.
  void sustain(const shaped_launch& launch, int blocks, int threads, ceiling_measurement& m);
  /// Times `launch` once more against the host's steady clock, back to back for about 50 ms
  /// between two CUDA events (best of three tries): "" when the two agree, else why not.
  std::string cross_check_host_clock(const shaped_launch& launch, int blocks, int threads,
                                     double median_s);
  /// Advances the progress callback.
  void step(const std::string& what);
  void set_total_steps(std::size_t total) { total_ = total; }

private:
  ceilings_options options_;
  cudaDeviceProp prop_{};
  int repetitions_;
  double sustained_s_;
  device_buffer clock_{sizeof(ceiling_kernels::clock_sample)};
  device_buffer errors_{sizeof(unsigned)};
  std::size_t done_ = 0, total_ = 1;
};

/// A measurement from a timed run: rate = work / median time.
ceiling_measurement make_measurement(std::string name, std::string unit, double work,
                                     const timed& t, double theoretical, std::string method);

/// cudaMemcpy device to device, cuBLAS (FP32, FP64, TF32, BF16, FP16 GEMMs) and cuBLASLt FP8
/// GEMM, the best of several sizes each; empty when the libraries cannot be loaded.
std::vector<ceiling_measurement> measure_gemm_references(measure_context& ctx,
                                                         const std::vector<ceiling>& theoretical);

/// The theoretical roof of a precision or level (nullptr when none).
const ceiling* theoretical_roof(const std::vector<ceiling>& roofs, std::optional<precision> p,
                                std::optional<memory_level> l);

} // namespace roofkit::ceilings_detail

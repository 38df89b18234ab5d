// The timing harness: events around each launch, median/min/max, L2 flush, SM clock.
#include <algorithm>
#include <cmath>
#include <memory>

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include "internal/clock_probe.hpp"
#include "roofkit/core.hpp"
#include "roofkit/timing.hpp"

namespace roofkit {

namespace {

void use_timing_device(int device) {
  const int count = visible_device_count();
  if (count == 0)
    throw no_device_error("no CUDA GPU found: timing needs a device",
                          "check nvidia-smi and CUDA_VISIBLE_DEVICES");
  if (device < 0 || device >= count)
    throw usage_error(fmt::format("device {} does not exist (valid: 0 to {})", device, count - 1));
  ROOFKIT_CUDA_CHECK(cudaSetDevice(device));
}

class event_pair {
public:
  event_pair() {
    ROOFKIT_CUDA_CHECK(cudaEventCreate(&start));
    ROOFKIT_CUDA_CHECK(cudaEventCreate(&stop));
  }
  ~event_pair() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  event_pair(const event_pair&) = delete;
  event_pair& operator=(const event_pair&) = delete;
  event_pair(event_pair&& o) noexcept : start(o.start), stop(o.stop) { o.start = o.stop = nullptr; }
  double seconds() const {
    float ms = 0;
    ROOFKIT_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    return ms * 1e-3;
  }
  cudaEvent_t start = nullptr;
  cudaEvent_t stop = nullptr;
};

struct device_buffer {
  explicit device_buffer(std::size_t bytes) { ROOFKIT_CUDA_CHECK(cudaMalloc(&ptr, bytes)); }
  ~device_buffer() { cudaFree(ptr); }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  void* ptr = nullptr;
};

clock_reading peak_clock(int device) {
  int khz = 0;
  ROOFKIT_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device));
  return {khz / 1000.0, "cudaDevAttrClockRate"};
}

} // namespace

timing summarize_samples(std::vector<double> samples) {
  timing t;
  if (samples.empty())
    return t;
  std::sort(samples.begin(), samples.end());
  const std::size_t n = samples.size();
  t.median_s = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  t.min_s = samples.front();
  t.max_s = samples.back();
  t.repetitions = static_cast<int>(n);
  return t;
}

l2_flusher::l2_flusher(int device, bool invalidate) : invalidate_(invalidate) {
  use_timing_device(device);
  int l2 = 0;
  ROOFKIT_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  ROOFKIT_CUDA_CHECK(cudaDeviceGetAttribute(&blocks_, cudaDevAttrMultiProcessorCount, device));
  blocks_ *= 4;
  if (invalidate_)
    cooperative_blocks_ = detail::l2_read_discard_blocks(device, 2);
  // A whole number of 128-byte lines (the discard's unit); cudaMalloc aligns to 256 bytes.
  bytes_ = 4 * static_cast<std::size_t>(std::max(l2, 1 << 20)) / 128 * 128;
  ROOFKIT_CUDA_CHECK(cudaMalloc(&buffer_, bytes_ + 64));
  sink_ = static_cast<unsigned*>(buffer_) + bytes_ / sizeof(unsigned);
  // Zeros, once; the memset leaves dirty lines, which the first sweep writes back.
  ROOFKIT_CUDA_CHECK(cudaMemset(buffer_, 0, bytes_ + 64));
  // A first cooperative launch, to know it is accepted (a process given fewer SMs than the
  // device has, under MPS, may not fit the grid): where it is not, every flush is two launches.
  if (cooperative_blocks_ > 0 &&
      detail::launch_l2_read_discard_sweep(buffer_, bytes_, 1u, sink_, cooperative_blocks_,
                                           nullptr) != cudaSuccess) {
    (void)cudaGetLastError();
    cooperative_blocks_ = 0;
  }
  flush(nullptr);
  ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
}

l2_flusher::~l2_flusher() { cudaFree(buffer_); }

void l2_flusher::flush(cudaStream_t stream) {
  value_ = value_ * 1664525u + 1013904223u;
  if (cooperative_blocks_ > 0) {
    ROOFKIT_CUDA_CHECK(detail::launch_l2_read_discard_sweep(buffer_, bytes_, value_, sink_,
                                                            cooperative_blocks_, stream));
    return;
  }
  detail::launch_l2_read_sweep(buffer_, bytes_, value_, sink_, blocks_, stream);
  ROOFKIT_CUDA_CHECK(cudaGetLastError());
  if (invalidate_) {
    detail::launch_l2_discard_sweep(buffer_, bytes_, blocks_, stream);
    ROOFKIT_CUDA_CHECK(cudaGetLastError());
  }
}

clock_reading observe_sm_clock(int device, cudaStream_t stream) {
  use_timing_device(device);
  device_buffer elapsed(sizeof(long long));
  auto* cycles_out = static_cast<long long*>(elapsed.ptr);
  // ~0.5 ms and ~1.5 ms at 2 GHz; the difference cancels launch and event overheads.
  const long long lengths[2] = {1'000'000, 3'000'000};
  std::vector<double> estimates;
  detail::launch_clock_probe(lengths[0], cycles_out, stream); // warm-up
  ROOFKIT_CUDA_CHECK_LAUNCH();
  for (int rep = 0; rep < 3; ++rep) {
    double seconds[2] = {};
    long long cycles[2] = {};
    for (int i = 0; i < 2; ++i) {
      event_pair ev;
      ROOFKIT_CUDA_CHECK(cudaEventRecord(ev.start, stream));
      detail::launch_clock_probe(lengths[i], cycles_out, stream);
      ROOFKIT_CUDA_CHECK_LAUNCH();
      ROOFKIT_CUDA_CHECK(cudaEventRecord(ev.stop, stream));
      ROOFKIT_CUDA_CHECK(cudaEventSynchronize(ev.stop));
      seconds[i] = ev.seconds();
      ROOFKIT_CUDA_CHECK(
          cudaMemcpy(&cycles[i], cycles_out, sizeof(long long), cudaMemcpyDeviceToHost));
    }
    const double dt = seconds[1] - seconds[0];
    if (dt > 0)
      estimates.push_back(static_cast<double>(cycles[1] - cycles[0]) / dt / 1e6);
  }
  const auto t = summarize_samples(estimates);
  const clock_reading peak = peak_clock(device);
  // A measured clock far outside (0, 1.5 x peak] means the probe was disturbed.
  if (t.repetitions == 0 || !std::isfinite(t.median_s) || t.median_s <= 0 ||
      t.median_s > 1.5 * peak.mhz)
    return peak;
  return {t.median_s, "clock64 probe"};
}

timing_result time_kernel(const launch_fn& launch, const timing_options& options) {
  if (options.repetitions < 1)
    throw usage_error(
        fmt::format("repetitions {} is out of range (valid: 1 or more)", options.repetitions));
  if (options.warmup < 0)
    throw usage_error(
        fmt::format("warm-up count {} is out of range (valid: 0 or more)", options.warmup));
  use_timing_device(options.device);
  const cudaStream_t stream = options.stream;
  std::unique_ptr<l2_flusher> own_flusher;
  l2_flusher* flusher = nullptr;
  if (options.flush_l2 && !options.prepare) {
    flusher = options.flusher;
    if (!flusher) {
      own_flusher = std::make_unique<l2_flusher>(options.device);
      flusher = own_flusher.get();
    }
  }

  for (int i = 0; i < options.warmup; ++i) {
    if (options.prepare)
      options.prepare(stream);
    launch(stream);
    ROOFKIT_CUDA_CHECK_LAUNCH();
  }
  ROOFKIT_CUDA_CHECK(cudaStreamSynchronize(stream));

  // A short kernel is timed in batches of launches between one pair of events, and each
  // sample is preceded by GPU work that outlasts the enqueueing (the flush, or a clock spin), so
  // that the launches run back to back at the GPU's pace instead of the host's.
  int batch = 1;
  if (options.min_batch_s > 0 && !options.prepare) {
    event_pair probe;
    ROOFKIT_CUDA_CHECK(cudaEventRecord(probe.start, stream));
    launch(stream);
    ROOFKIT_CUDA_CHECK_LAUNCH();
    ROOFKIT_CUDA_CHECK(cudaEventRecord(probe.stop, stream));
    ROOFKIT_CUDA_CHECK(cudaEventSynchronize(probe.stop));
    const double once = probe.seconds();
    if (!flusher && once > 0 && once < options.min_batch_s)
      batch = static_cast<int>(std::min(200.0, std::ceil(options.min_batch_s / once)));
  }
  device_buffer spin_sink(sizeof(long long));
  const long long spin_cycles = std::max(200'000LL, 10'000LL * batch);

  std::vector<event_pair> events;
  events.reserve(static_cast<std::size_t>(options.repetitions));
  for (int i = 0; i < options.repetitions; ++i) {
    if (options.prepare) {
      options.prepare(stream);
      ROOFKIT_CUDA_CHECK(cudaStreamSynchronize(stream));
    } else if (flusher) {
      flusher->flush(stream);
    } else if (batch > 1) {
      detail::launch_clock_probe(spin_cycles, static_cast<long long*>(spin_sink.ptr), stream);
      ROOFKIT_CUDA_CHECK_LAUNCH();
    }
    auto& ev = events.emplace_back();
    ROOFKIT_CUDA_CHECK(cudaEventRecord(ev.start, stream));
    for (int b = 0; b < batch; ++b)
      launch(stream);
    ROOFKIT_CUDA_CHECK_LAUNCH();
    ROOFKIT_CUDA_CHECK(cudaEventRecord(ev.stop, stream));
  }
  ROOFKIT_CUDA_CHECK(cudaStreamSynchronize(stream));

  timing_result r;
  r.l2_flushed = flusher != nullptr;
  r.launches_per_sample = batch;
  for (const auto& ev : events)
    r.samples_s.push_back(ev.seconds() / batch);
  r.time = summarize_samples(r.samples_s);
  if (options.observe_clock)
    r.sm_clock = observe_sm_clock(options.device, stream);
  return r;
}

} // namespace roofkit

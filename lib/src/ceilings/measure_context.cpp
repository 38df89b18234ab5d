// The run loop shared by every ceiling measurement.
#include "measure_context.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include <fmt/format.h>

namespace roofkit::ceilings_detail {

measure_context::measure_context(const ceilings_options& options, int repetitions)
    : options_(options), repetitions_(repetitions),
      sustained_s_(options.sustained_s >= 0 ? options.sustained_s : (options.quick ? 0.0 : 2.0)) {
  ROOFKIT_CUDA_CHECK(cudaGetDeviceProperties(&prop_, options.device));
}

double median_clock_mhz(const ceiling_kernels::clock_sample& c, unsigned long long last) {
  std::vector<double> mhz;
  constexpr unsigned long long slots = ceiling_kernels::clock_sample::slots;
  const auto n = std::min({c.launches, slots, last});
  for (unsigned long long k = 1; k <= n; ++k) {
    const auto i = (c.launches - k) % slots;
    if (c.time1[i] > c.time0[i] + 1000 && c.clock1[i] > c.clock0[i])
      mhz.push_back(double(c.clock1[i] - c.clock0[i]) / double(c.time1[i] - c.time0[i]) * 1e3);
  }
  return median_of(std::move(mhz));
}

double median_span_s(const ceiling_kernels::clock_sample& c, unsigned long long last) {
  std::vector<double> spans;
  constexpr unsigned long long slots = ceiling_kernels::clock_sample::slots;
  const auto n = std::min({c.launches, slots, last});
  for (unsigned long long k = 1; k <= n; ++k) {
    const auto i = (c.launches - k) % slots;
    if (c.time1[i] > c.time0[i])
      spans.push_back(double(c.time1[i] - c.time0[i]) * 1e-9);
  }
  return median_of(std::move(spans));
}

std::string event_span_check(double event_median_s, double span_median_s) {
  // Block 0 runs inside its launch; 1% and 2 us for the two timers' reading granularity.
  if (!(event_median_s > 0) || !(span_median_s > 1.01 * event_median_s + 2e-6))
    return "";
  return fmt::format("time source error: block 0 ran {:.4g} ms on the in-kernel global timer, "
                     "longer than its whole launch between CUDA events ({:.4g} ms)",
                     span_median_s * 1e3, event_median_s * 1e3);
}

std::string host_clock_check(double event_s, double host_s, int launches, double slack_s) {
  if (!(event_s > 0) || !(host_s > 1.01 * event_s + slack_s))
    return "";
  return fmt::format("time source error: {} back-to-back launches took {:.4g} ms on the host "
                     "clock but {:.4g} ms between CUDA events ({:.1f}% short): the GPU's timer "
                     "under-measures",
                     launches, host_s * 1e3, event_s * 1e3, 100 * (1 - event_s / host_s));
}

std::string measure_context::cross_check_host_clock(const shaped_launch& launch, int blocks,
                                                    int threads, double median_s) {
  if (!(median_s > 0))
    return "";
  const int n = static_cast<int>(std::clamp(std::ceil(0.05 / median_s), 1.0, 20000.0));
  ceiling_kernels::shape s;
  s.blocks = blocks;
  s.threads = threads;
  cudaEvent_t start = nullptr, stop = nullptr;
  ROOFKIT_CUDA_CHECK(cudaEventCreate(&start));
  ROOFKIT_CUDA_CHECK(cudaEventCreate(&stop));
  std::string why;
  for (int attempt = 0; attempt < 3; ++attempt) {
    ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
    const auto t0 = std::chrono::steady_clock::now();
    ROOFKIT_CUDA_CHECK(cudaEventRecord(start, s.stream));
    for (int i = 0; i < n; ++i)
      launch(s);
    ROOFKIT_CUDA_CHECK(cudaGetLastError());
    ROOFKIT_CUDA_CHECK(cudaEventRecord(stop, s.stream));
    ROOFKIT_CUDA_CHECK(cudaEventSynchronize(stop));
    const auto t1 = std::chrono::steady_clock::now();
    float ms = 0;
    ROOFKIT_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    why = host_clock_check(ms * 1e-3, std::chrono::duration<double>(t1 - t0).count(), n);
    if (why.empty())
      break;
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return why;
}

timed measure_context::run(const shaped_launch& launch, int blocks, int threads, int warmup,
                           int reps) {
  ROOFKIT_CUDA_CHECK(cudaMemset(errors_.ptr, 0, sizeof(unsigned)));
  ROOFKIT_CUDA_CHECK(cudaMemset(clock_.ptr, 0, sizeof(ceiling_kernels::clock_sample)));
  timing_options t;
  t.device = options_.device;
  t.warmup = warmup;
  t.repetitions = reps > 0 ? reps : repetitions_;
  t.observe_clock = false;
  ceiling_kernels::shape s;
  s.blocks = blocks;
  s.threads = threads;
  s.clock = clock_.as<ceiling_kernels::clock_sample>();
  s.errors = errors_.as<unsigned>();
  const auto r = time_kernel(
      [&](cudaStream_t stream) {
        s.stream = stream;
        launch(s);
      },
      t);
  ROOFKIT_CUDA_CHECK(cudaGetLastError());
  ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
  ceiling_kernels::clock_sample c;
  timed out;
  ROOFKIT_CUDA_CHECK(cudaMemcpy(&c, clock_.ptr, sizeof c, cudaMemcpyDeviceToHost));
  ROOFKIT_CUDA_CHECK(
      cudaMemcpy(&out.errors, errors_.ptr, sizeof(unsigned), cudaMemcpyDeviceToHost));
  out.time = r.time;
  // The timed launches only: a warm-up launch that ran at a lower clock would pull the median
  // below the clock of the launches whose times make the rate.
  const auto timed_launches = r.samples_s.size() * static_cast<std::size_t>(r.launches_per_sample);
  out.sm_clock_mhz = median_clock_mhz(c, timed_launches);
  out.time_check = event_span_check(r.time.median_s, median_span_s(c, timed_launches));
  return out;
}

int measure_context::calibrate(
    const std::function<void(const ceiling_kernels::shape&, int)>& launch, int blocks, int threads,
    double target_s, int trial_iterations, int max_iterations) {
  // Two rounds: the trial launch is short enough for the launch cost to matter, the second not.
  int n = trial_iterations;
  for (int round = 0; round < 2; ++round) {
    const timed t =
        run([&](const ceiling_kernels::shape& s) { launch(s, n); }, blocks, threads, 1, 1);
    const double per_iteration = t.time.median_s / n;
    if (!(per_iteration > 0))
      return n;
    n = static_cast<int>(std::clamp(target_s / per_iteration, 16.0, double(max_iterations))) / 16 *
        16;
  }
  return n;
}

void measure_context::sustain(const shaped_launch& launch, int blocks, int threads,
                              ceiling_measurement& m) {
  if (sustained_s_ <= 0 || m.time.median_s <= 0)
    return;
  ceiling_kernels::shape s;
  s.blocks = blocks;
  s.threads = threads;
  const auto start = std::chrono::steady_clock::now();
  const int batch = std::max(1, int(0.05 / m.time.median_s));
  double elapsed = 0;
  while (elapsed < sustained_s_) {
    for (int i = 0; i < batch; ++i)
      launch(s);
    ROOFKIT_CUDA_CHECK(cudaGetLastError());
    ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  const timed t = run(launch, blocks, threads, 0, 5);
  m.sustained_s = elapsed + 5 * t.time.median_s;
  m.sustained_value = t.time.median_s > 0 ? m.work / t.time.median_s : 0;
  m.sustained_sm_clock_mhz = t.sm_clock_mhz;
  if (t.errors)
    m.check = fmt::format("{} failed result checks in the sustained run", t.errors);
  else if (!t.time_check.empty())
    m.check = t.time_check + " (sustained run)";
}

void measure_context::step(const std::string& what) {
  if (options_.progress)
    options_.progress(done_, std::max(total_, done_ + 1), what);
  ++done_;
}

ceiling_measurement make_measurement(std::string name, std::string unit, double work,
                                     const timed& t, double theoretical, std::string method) {
  ceiling_measurement m;
  m.name = std::move(name);
  m.unit = std::move(unit);
  m.work = work;
  m.time = t.time;
  m.value = t.time.median_s > 0 ? work / t.time.median_s : 0;
  m.best = t.time.min_s > 0 ? work / t.time.min_s : 0;
  m.theoretical = theoretical;
  m.method = std::move(method);
  m.sm_clock_mhz = t.sm_clock_mhz;
  if (t.errors)
    m.check = fmt::format("{} failed result checks", t.errors);
  else if (!t.time_check.empty())
    m.check = t.time_check;
  return m;
}

const ceiling* theoretical_roof(const std::vector<ceiling>& roofs, std::optional<precision> p,
                                std::optional<memory_level> l) {
  for (const auto& c : roofs) {
    if (c.source != ceiling_source::theoretical)
      continue;
    if (l && c.is_memory && c.level == *l)
      return &c;
    if (p && !c.is_memory && c.prec == *p)
      return &c;
  }
  return nullptr;
}

} // namespace roofkit::ceilings_detail

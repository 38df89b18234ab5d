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
  out.sm_clock_mhz =
      median_clock_mhz(c, r.samples_s.size() * static_cast<std::size_t>(r.launches_per_sample));
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

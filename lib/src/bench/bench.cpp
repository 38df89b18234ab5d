#include "roofkit/bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <map>
#include <set>

#include <cuda_runtime_api.h>
#include <fmt/format.h>
#include <unistd.h>

#include "roofkit/build_info.hpp"
#include "roofkit/device.hpp"
#include "roofkit/device_check.hpp"
#include "roofkit/driver_api.hpp"
#include "roofkit/error.hpp"
#include "roofkit/profiler.hpp"
#include "roofkit/timing.hpp"

namespace roofkit {

namespace {

std::string utc_now() {
  const auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", tm.tm_year + 1900, tm.tm_mon + 1,
                     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0)
    return "unknown";
  return buf;
}

std::string cuda_version_text(int v) { return fmt::format("{}.{}", v / 1000, (v % 1000) / 10); }

/// Adds the values of several ranges (the launches of one run()): counts, bytes, FLOPs, time and
/// cycles add up; clocks and occupancy are averaged weighted by each range's time.
std::map<std::string, double> combine_ranges(const std::vector<range_values>& ranges,
                                             const resolved_set& set) {
  if (ranges.size() == 1)
    return ranges.front().values;
  std::map<std::string, metric_role> roles;
  std::string time_name;
  for (const auto& m : set.metrics) {
    roles[m.name] = m.spec.role;
    if (m.spec.role == metric_role::time)
      time_name = m.name;
  }
  std::map<std::string, double> sum, weighted, weight;
  for (const auto& r : ranges) {
    const double w = time_name.empty() || !r.values.count(time_name) ? 1.0 : r.values.at(time_name);
    for (const auto& [name, v] : r.values) {
      const auto role = roles.count(name) ? roles[name] : metric_role::count;
      if (role == metric_role::sm_clock || role == metric_role::dram_clock ||
          role == metric_role::occupancy) {
        weighted[name] += v * w;
        weight[name] += w;
      } else {
        sum[name] += v;
      }
    }
  }
  for (const auto& [name, v] : weighted)
    sum[name] = weight[name] > 0 ? v / weight[name] : 0;
  return sum;
}

double theoretical_occupancy(const kernel_instance& inst, const launch_config& launch,
                             const device_model& model) {
  const void* fn = inst.kernel_function();
  const int threads = int(launch.block[0] * launch.block[1] * launch.block[2]);
  if (!fn || threads == 0 || model.max_threads_per_sm == 0)
    return std::nan("");
  int blocks = 0;
  ROOFKIT_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &blocks, fn, threads, static_cast<std::size_t>(launch.dynamic_smem_bytes)));
  const int warps = (threads + 31) / 32;
  return double(blocks * warps) / double(model.max_threads_per_sm / 32);
}

/// Times runs that need reset() before each one (unified memory): reset outside the events.
timing time_with_reset(kernel_instance& inst, cudaStream_t stream, int warmup, int reps) {
  for (int i = 0; i < warmup; ++i) {
    inst.reset(stream);
    inst.run(stream);
  }
  ROOFKIT_CUDA_CHECK(cudaStreamSynchronize(stream));
  cudaEvent_t start, stop;
  ROOFKIT_CUDA_CHECK(cudaEventCreate(&start));
  ROOFKIT_CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<double> samples;
  for (int i = 0; i < reps; ++i) {
    inst.reset(stream);
    ROOFKIT_CUDA_CHECK(cudaStreamSynchronize(stream));
    ROOFKIT_CUDA_CHECK(cudaEventRecord(start, stream));
    inst.run(stream);
    ROOFKIT_CUDA_CHECK(cudaEventRecord(stop, stream));
    ROOFKIT_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    ROOFKIT_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    samples.push_back(ms * 1e-3);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return summarize_samples(std::move(samples));
}

struct stream_guard {
  cudaStream_t stream = nullptr;
  stream_guard() { ROOFKIT_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)); }
  ~stream_guard() { cudaStreamDestroy(stream); }
};

} // namespace

// Counter FLOPs in precisions the kernel's algorithm does not use (e.g. an HFMA2 that ptxas
// emits as a register move in integer index code) stay in the raw counters but are not placed;
// when the counters see no FLOPs at all for an algorithm that has some (atomic adds execute as
// RED, which no FP-instruction counter counts), the declared FLOPs are placed instead. Both are
// said in the kernel's message.
void reconcile_flops(kernel_result& k, const std::map<precision, double>& declared) {
  auto declares = [&](precision p) {
    const auto it = declared.find(p);
    return it != declared.end() && it->second > 0;
  };
  std::string note;
  for (auto it = k.flops.begin(); it != k.flops.end();) {
    if (it->second > 0 && !declares(it->first)) {
      k.counters["roofkit__unplaced_flops_" + to_string(it->first)] = it->second;
      note += fmt::format("{}counters saw {:.4g} {} FLOPs the algorithm does not have (not "
                          "placed; e.g. HFMA2 used as a move)",
                          note.empty() ? "" : "; ", it->second, label(it->first));
      it = k.flops.erase(it);
    } else {
      ++it;
    }
  }
  double counted = 0, wanted = 0;
  for (const auto& [p, v] : k.flops)
    counted += v;
  for (const auto& [p, v] : declared)
    wanted += v;
  if (counted == 0 && wanted > 0) {
    k.flops = declared;
    note += fmt::format("{}FLOPs from the algorithm: the counters saw no FP instruction (atomic "
                        "adds execute as RED)",
                        note.empty() ? "" : "; ");
  }
  if (!note.empty())
    k.message += (k.message.empty() ? "" : "; ") + note;
}

std::vector<std::string> bench_detail_metrics() {
  std::vector<std::string> names;
  std::set<std::string> seen;
  auto add = [&](const std::string& n) {
    if (seen.insert(n).second)
      names.push_back(n);
  };
  for (const auto& m : find_metric_set("coalescing").metrics)
    add(m.names.front());
  for (const auto& c : seed_claims())
    for (const auto& n : c.counters)
      add(n);
  return names;
}

bench_outcome run_bench(const bench_options& options) {
  auto warn = options.warn ? options.warn : [](const std::string& s) {
    std::cerr << "roofkit: warning: " << s << '\n';
  };
  auto progress = [&](const bench_progress& p) {
    if (options.progress)
      options.progress(p);
  };
  if (options.repetitions < 1 || options.repetitions > 100000)
    throw usage_error(
        fmt::format("--reps {} is out of range (valid: 1..100000)", options.repetitions));
  const auto kernels = select_kernels(options.kernel_regex);
  if (options.size)
    for (const auto* d : kernels)
      d->validate_size(*options.size);
  if (visible_device_count() == 0)
    throw no_device_error("no CUDA GPU visible: bench needs one",
                          "to see a recorded H100 run instead: roofline-cuda report "
                          "data/runs/h100-sxm.json");
  require_device(options.device);
  ROOFKIT_CUDA_CHECK(cudaSetDevice(options.device));
  const device_model model = query_device(options.device);

  bench_outcome out;
  run& r = out.result;
  r.ceilings = theoretical_ceilings(model);
  if (options.measure_ceilings) {
    progress({0, kernels.size(), "ceilings", "measure"});
    ceilings_options co;
    co.device = options.device;
    out.measured = measure_ceilings(co, r.ceilings);
    r.ceilings.insert(r.ceilings.end(), out.measured.ceilings.begin(), out.measured.ceilings.end());
    for (const auto& m : out.measured.measurements)
      r.context.extra["measured: " + m.name] =
          fmt::format("{:.4g} {} ({:.1f}% of theoretical)", m.value, m.unit,
                      m.theoretical > 0 ? 100 * m.value / m.theoretical : 0.0);
  }

  std::unique_ptr<profiler_session> roofline_session, detail_session;
  if (options.counters) {
    const profiler_status status = check_profiler(options.device);
    if (!status.ok) {
      out.counters_note = status.message + (status.hint.empty() ? "" : " (" + status.hint + ")");
    } else {
      try {
        roofline_session = std::make_unique<profiler_session>(options.device, "roofline");
        detail_session = std::make_unique<profiler_session>(
            options.device, custom_metric_set(bench_detail_metrics()));
        out.roofline_passes = roofline_session->passes();
        out.detail_passes = detail_session->passes();
        out.counters_used = true;
      } catch (const error& e) {
        roofline_session.reset();
        detail_session.reset();
        out.counters_note = std::string(e.what()) + (e.hint().empty() ? "" : " (" + e.hint() + ")");
      }
    }
    if (!out.counters_used)
      warn("counters unavailable, running in analytical mode (declared FLOPs and bytes, "
           "measured times): " +
           out.counters_note);
  } else {
    out.counters_note = "counters turned off (--no-counters)";
  }

  stream_guard guard;
  const cudaStream_t stream = guard.stream;
  std::size_t done = 0;
  for (const kernel_descriptor* d : kernels) {
    kernel_result k;
    k.name = d->name;
    k.topic = d->topic;
    k.claim = d->claim;
    const problem_size size = options.size.value_or(d->default_size);
    k.size = fmt::format("{} ({})", size, d->size_unit);
    k.algorithmic_flops = d->total_flops(size);
    k.minimal_bytes = d->minimal_bytes(size);
    k.source = work_source::analytical;
    try {
      auto inst = d->make();
      progress({done, kernels.size(), d->name, "verify"});
      inst->setup(size);
      if (d->reset_before_each_run)
        inst->reset(stream);
      inst->run(stream);
      ROOFKIT_CUDA_CHECK(cudaStreamSynchronize(stream));
      const verification v = inst->verify();
      k.launch = inst->launch();
      if (!v.ok) {
        k.status = "failed";
        k.message = "verification failed: " + v.message;
        ++out.failed;
        warn(fmt::format("{}: VERIFICATION FAILED: {}", d->name, v.message));
      }
      progress({done, kernels.size(), d->name, "time"});
      if (d->reset_before_each_run) {
        k.time = time_with_reset(*inst, stream, options.warmup, options.repetitions);
      } else {
        timing_options t;
        t.device = options.device;
        t.warmup = options.warmup;
        t.repetitions = options.repetitions;
        t.flush_l2 = options.flush_l2;
        t.observe_clock = false;
        t.stream = stream;
        k.time = time_kernel([&](cudaStream_t s) { inst->run(s); }, t).time;
      }
      if (d->kind == measurement::kernel) {
        const double occ = theoretical_occupancy(*inst, k.launch, model);
        if (std::isfinite(occ))
          k.occupancy_theoretical = occ;
      }
      const bool profile = roofline_session && d->counter_profiled &&
                           d->kind == measurement::kernel && k.status == "ok";
      if (profile) {
        progress({done, kernels.size(), d->name, "counters"});
        auto ranges = roofline_session->profile([&] { inst->run(stream); });
        if (ranges.empty())
          throw runtime_error(fmt::format("{}: the profiler saw no kernel launch", d->name));
        const auto values = combine_ranges(ranges, roofline_session->metrics());
        apply_counts(derive_roofline_counts(roofline_session->metrics(), values), values, k);
        reconcile_flops(k, d->flops(size));
        auto detail = detail_session->profile([&] { inst->run(stream); });
        for (const auto& [name, value] : combine_ranges(detail, detail_session->metrics()))
          k.counters[name] = value;
        k.source = work_source::counters;
      } else if (d->kind != measurement::transfer) {
        k.flops = d->flops(size);
        k.bytes[memory_level::dram] = d->minimal_bytes(size);
      }
      for (const auto& [key, value] : inst->facts())
        if (key == "registers" || key == "local_bytes_per_thread")
          k.counters["roofkit__" + key] = std::strtod(value.c_str(), nullptr);
      if (d->kind == measurement::transfer)
        k.message = "host transfer: bandwidth over the host link, not placed on the roofline";
      inst->teardown();
    } catch (const error& e) {
      if (e.code() == exit_code::usage)
        throw;
      k.status = "error";
      k.message = e.what();
      ++out.failed;
      warn(fmt::format("{}: {}", d->name, e.what()));
      cudaGetLastError();
    }
    r.kernels.push_back(std::move(k));
    ++done;
    progress({done, kernels.size(), d->name, "done"});
  }

  const clock_reading clock = observe_sm_clock(options.device, stream);
  run_context& c = r.context;
  c.tool_version = std::string(tool_version());
  c.git_revision = std::string(git_revision());
  c.date = utc_now();
  c.host = host_name();
  c.device_name = model.name;
  c.cc_major = model.cc_major;
  c.cc_minor = model.cc_minor;
  c.sm_count = model.sm_count;
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  c.driver_version = cuda_version_text(driver);
  c.runtime_version = cuda_version_text(runtime);
  c.sm_clock_mhz = clock.mhz;
  c.mem_clock_mhz = model.memory_clock_mhz;
  c.origin = out.counters_used ? run_origin::measured : run_origin::analytical;
  c.command = options.command;
  c.extra["sm_clock_method"] = clock.method;
  c.extra["repetitions"] = std::to_string(options.repetitions);
  c.extra["l2_flush"] = options.flush_l2 ? "yes" : "no";
  if (out.counters_used) {
    c.extra["counter_passes"] =
        fmt::format("roofline {}, detail {}", out.roofline_passes, out.detail_passes);
  } else {
    c.extra["counters"] = out.counters_note;
  }
  return out;
}

} // namespace roofkit

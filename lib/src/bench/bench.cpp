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

#include "roofkit/core.hpp"
#include "roofkit/device.hpp"
#include "roofkit/profiler.hpp"
#include "roofkit/timing.hpp"

namespace roofkit {

namespace {

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

// The main kernel's launch facts from the runtime, as the injector reads them from the driver:
// registers, static shared memory, local memory per thread, required cluster shape, and with the
// runtime's blocks per SM the theoretical occupancy and waves per SM.
void add_launch_facts(const kernel_instance& inst, const device_model& model, kernel_result& k) {
  const void* fn = inst.kernel_function();
  launch_config& launch = k.launch;
  const int threads = int(launch.block[0] * launch.block[1] * launch.block[2]);
  if (!fn || threads == 0 || model.max_threads_per_sm == 0)
    return;
  cudaFuncAttributes attr{};
  ROOFKIT_CUDA_CHECK(cudaFuncGetAttributes(&attr, fn));
  launch.registers_per_thread = static_cast<std::uint32_t>(attr.numRegs);
  launch.static_smem_bytes = static_cast<std::uint32_t>(attr.sharedSizeBytes);
  launch.local_bytes_per_thread = static_cast<std::uint32_t>(attr.localSizeBytes);
  if (attr.requiredClusterWidth > 0 && attr.requiredClusterHeight > 0 &&
      attr.requiredClusterDepth > 0)
    launch.cluster = {static_cast<std::uint32_t>(attr.requiredClusterWidth),
                      static_cast<std::uint32_t>(attr.requiredClusterHeight),
                      static_cast<std::uint32_t>(attr.requiredClusterDepth)};
  int blocks = 0;
  ROOFKIT_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &blocks, fn, threads, static_cast<std::size_t>(launch.dynamic_smem_bytes)));
  const int warps = (threads + 31) / 32;
  k.occupancy_theoretical = double(blocks * warps) / double(model.max_threads_per_sm / 32);
  if (blocks > 0 && model.sm_count > 0)
    launch.waves_per_sm = waves_per_sm(launch, model.sm_count, blocks);
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

metric_set_def bench_metric_set() {
  metric_set_def s = find_metric_set("roofline");
  s.name = "bench";
  s.description = "the roofline set plus the coalescing and claim counters, in one pass set";
  // Without NERSC's L2 (`lts__t_bytes`): no L2 tag counter shares a pass with the crossbar
  // counter of roofkit's L2, and programming the L2 slices for a second pass cost 15 ms per
  // profiled launch on the H100 (docs/metrics.md). The roofline sets keep it.
  std::erase_if(s.metrics, [](const metric_spec& m) { return m.key == "l2_tag_bytes"; });
  std::set<std::string> have;
  for (const auto& m : s.metrics)
    for (const auto& n : m.names)
      have.insert(n);
  std::set<std::string> optional; // counters of some chips only (cp.async): dropped quietly
  for (const auto& m : find_metric_set("coalescing").metrics)
    if (m.optional)
      optional.insert(m.names.front());
  for (auto& m : custom_metric_set(bench_detail_metrics()).metrics)
    if (!have.count(m.names.front())) {
      m.optional = optional.count(m.names.front()) > 0;
      s.metrics.push_back(std::move(m));
    }
  // The detail counters are required: they go before the optional (budgeted) ones, so that the
  // budget only ever drops optional extras.
  std::stable_partition(s.metrics.begin(), s.metrics.end(),
                        [](const metric_spec& m) { return !m.optional; });
  // One pass beyond the required ones (3 on GH100) buys the tensor paths that real applications
  // run: without it HGMMA BF16 and TF32 do not fit beside the detail counters, and a BF16 GEMM
  // would be placed as moving data only.
  s.pass_budget = 4;
  return s;
}

const std::vector<std::string>& shape_detail_keys() {
  static const std::vector<std::string> keys{"occupancy", "l1_tag_bytes", "imma_int8"};
  return keys;
}

metric_set_def bench_per_launch_metric_set() {
  metric_set_def s = bench_metric_set();
  s.name = "bench-per-launch";
  s.description = "the bench set without the counters a shape's first launches measure for all "
                  "its launches (achieved occupancy, L1 tag bytes, INT8 mma.sync) and without "
                  "the seed claims' own counters";
  // Application profiles register no seed claims; where a kernel suite does, its claim counters
  // would cost passes of their own.
  std::set<std::string> claims_only;
  for (const auto& c : seed_claims())
    claims_only.insert(c.counters.begin(), c.counters.end());
  for (const char* set : {"roofline", "coalescing"})
    for (const auto& m : find_metric_set(set).metrics)
      for (const auto& n : m.names)
        claims_only.erase(n);
  const auto& leave_out = shape_detail_keys();
  std::erase_if(s.metrics, [&](const metric_spec& m) {
    return std::find(leave_out.begin(), leave_out.end(), m.key) != leave_out.end() ||
           claims_only.count(m.names.front()) > 0;
  });
  return s;
}

bool per_launch_set_misses(const resolved_set& full, const std::map<std::string, double>& values) {
  const auto& left_out = shape_detail_keys();
  for (const auto& m : full.metrics) {
    if (m.spec.role != metric_role::flops ||
        std::find(left_out.begin(), left_out.end(), m.spec.key) == left_out.end())
      continue;
    const auto it = values.find(m.name);
    if (it != values.end() && it->second != 0)
      return true;
  }
  return false;
}

bool overhead_dominated(const kernel_result& k) {
  const double t = k.time.median_s;
  if (!(t > 0))
    return false;
  if (k.gpu_time_s && *k.gpu_time_s > 0)
    return t > 1.5 * *k.gpu_time_s;
  return t < 5e-6;
}

namespace {

/// The run's roofs: theoretical, then measured ones from the machine file or measured now.
void add_ceilings(bench_outcome& out, const bench_options& options, const device_model& model,
                  std::size_t kernel_count) {
  run& r = out.result;
  r.ceilings = theoretical_ceilings(model);
  if (!options.machine_ceilings.empty()) {
    apply_measured_ceilings(r.ceilings, options.machine_ceilings);
  } else if (options.measure_ceilings) {
    if (options.progress)
      options.progress({0, kernel_count, "ceilings", "measure"});
    ceilings_options co;
    co.device = options.device;
    out.measured = measure_ceilings(co, r.ceilings);
    r.ceilings.insert(r.ceilings.end(), out.measured.ceilings.begin(), out.measured.ceilings.end());
    for (const auto& m : out.measured.measurements)
      r.context.extra["measured: " + m.name] =
          fmt::format("{:.4g} {} ({:.1f}% of theoretical)", m.value, m.unit,
                      m.theoretical > 0 ? 100 * m.value / m.theoretical : 0.0);
  }
}

/// The counter session, or none (counters off, or unavailable: then why, in the outcome).
std::unique_ptr<profiler_session>
open_session(bench_outcome& out, const bench_options& options,
             const std::function<void(const std::string&)>& warn) {
  std::unique_ptr<profiler_session> session;
  if (!options.counters) {
    out.counters_note = "counters turned off on request: analytical placement (declared FLOPs "
                        "and minimal bytes, measured times)";
    return session;
  }
  const profiler_status status = check_profiler(options.device);
  if (!status.ok) {
    out.counters_note = status.message + (status.hint.empty() ? "" : " (" + status.hint + ")");
    out.counters_exit = status.exit;
  } else {
    try {
      profiler_options po;
      po.cache = options.cache;
      po.warn = warn;
      po.config_cache_dir = default_cache_dir();
      session = std::make_unique<profiler_session>(options.device, bench_metric_set(), po);
      out.passes = session->passes();
      out.counters_used = true;
    } catch (const error& e) {
      session.reset();
      out.counters_note = std::string(e.what()) + (e.hint().empty() ? "" : " (" + e.hint() + ")");
      out.counters_exit = static_cast<int>(e.code());
    }
  }
  if (!out.counters_used) {
    if (out.counters_exit == 0)
      out.counters_exit = static_cast<int>(exit_code::no_device);
    warn("counters unavailable: kernels are verified and timed but not placed (timing only): " +
         out.counters_note);
  }
  return session;
}

/// Times one kernel instance through the timing harness, as its kind asks.
timing time_instance(kernel_instance& inst, const kernel_descriptor& d,
                     const bench_options& options, cudaStream_t stream, l2_flusher* flusher) {
  timing_options t;
  t.device = options.device;
  t.warmup = options.warmup;
  t.repetitions = options.repetitions;
  // Host transfers are timed one per event pair with nothing queued before them: GPU work
  // ahead of a pageable copy would hide its host-side staging.
  const bool transfer = d.kind == measurement::transfer;
  t.flush_l2 = options.flush_l2 && !transfer;
  t.min_batch_s = t.flush_l2 || transfer ? 0 : 200e-6;
  t.observe_clock = false;
  t.stream = stream;
  t.flusher = flusher;
  if (d.reset_before_each_run) // unified memory: reset outside the events, never flushed
    t.prepare = [&inst](cudaStream_t s) { inst.reset(s); };
  return time_kernel([&inst](cudaStream_t s) { inst.run(s); }, t).time;
}

/// The instance's register and local-memory facts, as raw counters of the kernel.
void add_facts(kernel_result& k, const kernel_instance& inst) {
  for (const auto& [key, value] : inst.facts())
    if (key == "registers" || key == "local_bytes_per_thread")
      k.counters["roofkit__" + key] = std::strtod(value.c_str(), nullptr);
}

/// The run's context: tool, host, device, versions, clocks and how the kernels were measured.
void fill_context(run_context& c, const bench_outcome& out, const bench_options& options,
                  const device_model& model, const clock_reading& clock,
                  const profiler_session* session) {
  c.tool_version = std::string(tool_version());
  c.git_revision = std::string(git_revision());
  c.date = utc_timestamp();
  c.host = host_name();
  c.gpu_uuid = gpu_uuid(options.device);
  c.machine_id = machine_id();
  c.device_name = model.name;
  c.cc_major = model.cc_major;
  c.cc_minor = model.cc_minor;
  c.sm_count = model.sm_count;
  auto [driver, runtime] = query_cuda_versions();
  c.driver_version = std::move(driver);
  c.runtime_version = std::move(runtime);
  c.sm_clock_mhz = clock.mhz;
  c.mem_clock_mhz = model.memory_clock_mhz;
  c.origin = out.counters_used  ? run_origin::measured
             : options.counters ? run_origin::timing_only
                                : run_origin::analytical;
  c.command = options.command;
  c.extra["sm_clock_method"] = clock.method;
  c.extra["repetitions"] = std::to_string(options.repetitions);
  c.extra["timing"] = options.flush_l2 ? "cold (L2 written back and invalidated before every "
                                         "launch)"
                                       : "warm (back-to-back launches)";
  c.cache_control = out.counters_used ? to_string(options.cache) : "";
  c.clock_control = to_string(options.clock);
  c.extra["clock_control"] = out.clock_note;
  if (out.counters_used) {
    c.extra["counter_passes"] = std::to_string(out.passes);
    c.extra["cache_control_method"] = session->cache_control_method();
    c.extra["cache_control_passes"] = std::to_string(session->cache_controlled_passes());
    const auto& st = session->stats();
    c.extra["profiling_wall_s"] =
        fmt::format("{:.2f} ({} kernels: set-up {:.2f}, passes {:.2f}, decode {:.2f})",
                    out.profile_seconds, st.calls, st.setup_s, st.passes_s, st.decode_s);
  } else {
    c.extra["counters"] = out.counters_note;
  }
}

/// A kernel set up and waiting to be profiled in a batch.
struct pending_kernel {
  const kernel_descriptor* d;
  problem_size size;
  std::unique_ptr<kernel_instance> inst;
  std::size_t index; // in r.kernels
};

/// Profiles the pending kernels in one pass set (one by one when the batch fails) and places each
/// with its counters in `r` (a kernel the profiler did not see is an error).
void profile_pending_kernels(std::vector<pending_kernel>& pending, profiler_session& session,
                             run& r, bench_outcome& out, cudaStream_t stream,
                             const std::function<void(const std::string&)>& warn) {
  std::vector<batch_work> works;
  for (auto& p : pending) {
    kernel_instance* inst = p.inst.get();
    batch_work w{[inst, stream] { inst->run(stream); },
                 static_cast<std::size_t>(std::max(1, p.d->kernels_per_run))};
    // Managed memory: every pass starts with the pages where a timed run finds them.
    if (p.d->reset_before_each_run)
      w.before = [inst, stream] { inst->reset(stream); };
    works.push_back(std::move(w));
  }
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::vector<range_values>> ranges;
  try {
    ranges = session.profile_batch(works);
  } catch (const error& e) {
    if (e.code() == exit_code::usage)
      throw;
    // One kernel at a time then, so that one kernel's failure stays its own.
    warn(fmt::format("profiling a batch of {} kernels failed ({}); profiling them one by one",
                     pending.size(), e.what()));
    cudaGetLastError();
    ranges.clear();
    for (auto& w : works) {
      try {
        ranges.push_back(session.profile_launches(w.work, w.before));
      } catch (const error& e2) {
        if (e2.code() == exit_code::usage)
          throw;
        ranges.emplace_back();
        cudaGetLastError();
      }
    }
  }
  out.profile_seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    auto& p = pending[i];
    kernel_result& k = r.kernels[p.index];
    if (ranges[i].empty()) {
      k.status = "error";
      k.message = "counters: the profiler saw no kernel launch";
      k.source = work_source::analytical;
      ++out.failed;
      continue;
    }
    const auto values = combine_ranges(ranges[i], session.metrics());
    apply_counts(derive_roofline_counts(session.metrics(), values), values, k);
    reconcile_flops(k, p.d->flops(p.size));
    k.overhead_dominated = overhead_dominated(k);
  }
}

/// Places a kernel that is not profiled: with its declared FLOPs and bytes where counters are off
/// or it is not profiled by design, else says why it is not placed.
void place_unprofiled(kernel_result& k, const kernel_descriptor& d, problem_size size,
                      const bench_options& options) {
  if (d.kind != measurement::transfer && !options.counters) {
    k.flops = d.flops(size);
    k.bytes[memory_level::dram] = d.minimal_bytes(size);
  } else if (d.kind != measurement::transfer && !d.counter_profiled) {
    k.flops = d.flops(size);
    k.bytes[memory_level::dram] = d.minimal_bytes(size);
    k.message += (k.message.empty() ? "" : "; ") +
                 std::string("not profiled by design: placed with declared FLOPs and bytes");
  } else if (d.kind != measurement::transfer && k.status == "ok") {
    k.message += (k.message.empty() ? "" : "; ") +
                 std::string("timing only: counters unavailable, not placed");
  }
}

// One bench run going through its kernels. Kernels to profile wait, set up, until their device
// memory reaches half of what was free; then the batch is profiled in one pass set (each kernel
// after its own cache control).
struct bench_pass {
  const bench_options& options;
  const device_model& model;
  const std::vector<const kernel_descriptor*>& kernels;
  bench_outcome& out;
  profiler_session* session;
  cudaStream_t stream;
  l2_flusher* flusher;
  std::function<void(const std::string&)> warn;
  double batch_budget = 0;
  std::size_t done = 0;
  std::vector<pending_kernel> pending;
  double pending_bytes = 0;

  void progress(const bench_progress& p) const {
    if (options.progress)
      options.progress(p);
  }

  void profile_pending() {
    if (pending.empty())
      return;
    progress({done, kernels.size(), fmt::format("{} kernels", pending.size()), "counters"});
    profile_pending_kernels(pending, *session, out.result, out, stream, warn);
    for (auto& p : pending)
      p.inst->teardown();
    pending.clear();
    pending_bytes = 0;
  }

  // Verifies and times `d` into `k`; true when the kernel was handed to the batch to profile.
  bool run_kernel(const kernel_descriptor& d, problem_size size, kernel_result& k) {
    auto inst = d.make();
    progress({done, kernels.size(), d.name, "verify"});
    inst->setup(size);
    if (d.reset_before_each_run)
      inst->reset(stream);
    inst->run(stream);
    ROOFKIT_CUDA_CHECK(cudaStreamSynchronize(stream));
    const verification v = inst->verify();
    k.launch = inst->launch();
    if (!v.ok) {
      k.status = "failed";
      k.message = "verification failed: " + v.message;
      ++out.failed;
      warn(fmt::format("{}: VERIFICATION FAILED: {}", d.name, v.message));
    }
    progress({done, kernels.size(), d.name, "time"});
    k.time = time_instance(*inst, d, options, stream, flusher);
    if (d.kind != measurement::transfer)
      add_launch_facts(*inst, model, k);
    if (session && d.counter_profiled && d.kind != measurement::transfer && k.status == "ok") {
      // Profiled later, in a batch with the kernels around it (one pass set per batch).
      k.source = work_source::counters;
      add_facts(k, *inst);
      pending_bytes += d.device_bytes(size);
      pending.push_back({&d, size, std::move(inst), out.result.kernels.size()});
      out.result.kernels.push_back(std::move(k));
      ++done;
      if (pending_bytes > batch_budget)
        profile_pending();
      return true;
    }
    place_unprofiled(k, d, size, options);
    k.overhead_dominated = overhead_dominated(k);
    add_facts(k, *inst);
    if (d.kind == measurement::transfer)
      k.message = "host transfer: bandwidth over the host link, not placed on the roofline";
    inst->teardown();
    return false;
  }

  void measure(const kernel_descriptor& d) {
    kernel_result k;
    k.name = d.name;
    k.topic = d.topic;
    k.claim = d.claim;
    const problem_size size = options.size.value_or(d.default_size);
    k.size = fmt::format("{} ({})", size, d.size_unit);
    k.algorithmic_flops = d.total_flops(size);
    k.minimal_bytes = d.minimal_bytes(size);
    k.source = work_source::analytical;
    try {
      if (run_kernel(d, size, k))
        return;
    } catch (const error& e) {
      // Bad input, or a GPU this build cannot run on (no code for it): every kernel would fail
      // the same way, so the run stops with the one line.
      if (e.code() == exit_code::usage || e.code() == exit_code::no_device)
        throw;
      k.status = "error";
      k.message = e.what();
      ++out.failed;
      warn(fmt::format("{}: {}", d.name, e.what()));
      cudaGetLastError();
    }
    out.result.kernels.push_back(std::move(k));
    ++done;
    progress({done, kernels.size(), d.name, "done"});
  }
};

// The kernels the options select, with the options checked.
std::vector<const kernel_descriptor*> checked_kernels(const bench_options& options) {
  if (options.repetitions < 1 || options.repetitions > 100000)
    throw usage_error(
        fmt::format("repetitions '{}' out of range (valid: 1..100000)", options.repetitions));
  const auto kernels = select_kernels(options.kernel_regex);
  if (options.size)
    for (const auto* d : kernels)
      d->validate_size(*options.size);
  return kernels;
}

} // namespace

bench_outcome run_bench(const bench_options& options) {
  auto warn = options.warn ? options.warn : [](const std::string& s) {
    std::cerr << "roofkit: warning: " << s << '\n';
  };
  const auto kernels = checked_kernels(options);
  if (visible_device_count() == 0)
    throw no_device_error("no CUDA GPU visible: bench needs one");
  require_device(options.device);
  ROOFKIT_CUDA_CHECK(cudaSetDevice(options.device));
  const device_model model = query_device(options.device);

  bench_outcome out;
  add_ceilings(out, options, model, kernels.size());
  const clock_control_state clocks = apply_clock_control(options.clock, {options.device});
  out.clock_note = clocks.note;
  const std::unique_ptr<profiler_session> session = open_session(out, options, warn);

  stream_guard guard;
  // One flusher for every kernel's cold timing: made (and its buffer allocated) before the
  // first kernel is set up, instead of once per kernel.
  const std::unique_ptr<l2_flusher> flusher =
      options.flush_l2 ? std::make_unique<l2_flusher>(options.device) : nullptr;
  std::size_t free_bytes = 0, total_bytes = 0;
  ROOFKIT_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  bench_pass pass{options,       model,         kernels,
                  out,           session.get(), guard.stream,
                  flusher.get(), warn,          0.5 * double(free_bytes)};
  for (const kernel_descriptor* d : kernels)
    pass.measure(*d);
  pass.profile_pending();

  const clock_reading clock = observe_sm_clock(options.device, guard.stream);
  fill_context(out.result.context, out, options, model, clock, session.get());
  return out;
}

} // namespace roofkit

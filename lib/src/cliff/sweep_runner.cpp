// Running a cliff sweep of a registered kernel on the GPU: at each value a fresh instance, one
// verified run, timed repetitions, the occupancy engine's prediction and the counters.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>
#include <sstream>

#include <cuda_runtime_api.h>
#include <fmt/format.h>
#include <unistd.h>

#include "roofkit/arch.hpp"
#include "roofkit/cliff.hpp"
#include "roofkit/core.hpp"
#include "roofkit/device.hpp"
#include "roofkit/occupancy.hpp"
#include "roofkit/profiler.hpp"
#include "roofkit/registry.hpp"
#include "roofkit/roofline.hpp"
#include "roofkit/timing.hpp"
#include "sweep_point.hpp"

namespace roofkit {

namespace {

using warn_fn = std::function<void(const std::string&)>;

struct stream_guard {
  cudaStream_t stream = nullptr;
  stream_guard() { ROOFKIT_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)); }
  ~stream_guard() { cudaStreamDestroy(stream); }
};

std::string valid_caps(const std::vector<int>& caps) {
  std::string s;
  for (int c : caps)
    s += (s.empty() ? "" : ", ") + std::to_string(c);
  return s;
}

std::vector<std::int64_t> values_for(const kernel_descriptor& d, const cliff_options_run& o,
                                     sweep_range& range) {
  if (o.axis == sweep_axis::regs) {
    range = o.range.value_or(sweep_range{d.register_caps.front(), d.register_caps.back(), 1});
    std::vector<std::int64_t> v;
    for (int c : d.register_caps)
      if (c >= range.first && c <= range.last)
        v.push_back(c);
    if (v.empty())
      throw usage_error(fmt::format("range {} holds none of the register caps {} is compiled at "
                                    "(valid: {})",
                                    to_string(range), d.name, valid_caps(d.register_caps)));
    return v;
  }
  if (o.range) {
    range = *o.range;
  } else {
    range = default_sweep_range(o.axis);
    if (o.axis == sweep_axis::size) {
      // Powers of two from the smallest to the largest valid size, at most 1G.
      std::int64_t first = 1;
      while (first < d.min_size)
        first *= 2;
      std::int64_t last = first;
      while (last * 2 <= std::min<std::int64_t>(d.max_size, std::int64_t{1} << 30))
        last *= 2;
      range = {std::max<std::int64_t>(first, 1024), last, 2, true};
    }
  }
  auto v = sweep_values(range);
  if (v.empty())
    throw usage_error(fmt::format("range {} has no values", to_string(range)));
  return v;
}

// The kernel of the options, if it can be swept along their axis; usage_error otherwise.
const kernel_descriptor& sweepable_kernel(const cliff_options_run& o) {
  const kernel_descriptor* d = find_kernel(o.kernel);
  if (!d)
    throw usage_error(fmt::format("kernel '{}' is not registered", o.kernel));
  if ((o.axis == sweep_axis::block || o.axis == sweep_axis::smem) && !d->make_shaped)
    throw usage_error(fmt::format("kernel '{}' has a fixed launch: it cannot be swept over {} "
                                  "(kernels that can: those with a run-time launch shape)",
                                  d->name, to_string(o.axis)));
  if (o.axis == sweep_axis::regs && (d->register_caps.empty() || !d->make_shaped))
    throw usage_error(fmt::format("kernel '{}' is compiled at one register count: it cannot be "
                                  "swept over regs",
                                  d->name));
  if (d->kind != measurement::kernel)
    throw usage_error(fmt::format("kernel '{}' is a {} measurement, not a kernel: no occupancy "
                                  "to sweep",
                                  d->name, to_string(d->kind)));
  if (o.repetitions < 1 || o.repetitions > 100000)
    throw usage_error(fmt::format("repetitions {} out of range (valid: 1..100000)", o.repetitions));
  if (o.size && o.axis != sweep_axis::size)
    d->validate_size(*o.size);
  return *d;
}

// The kernels of a ptxas log, under their mangled and their demangled names (the runtime may name
// a function either way); empty without a log.
std::map<std::string, ptxas_kernel> read_ptxas(const std::string& path) {
  std::map<std::string, ptxas_kernel> ptxas;
  if (path.empty())
    return ptxas;
  std::ifstream in(path);
  if (!in)
    throw usage_error(fmt::format("cannot read ptxas log '{}'", path));
  std::stringstream ss;
  ss << in.rdbuf();
  const auto kernels = parse_ptxas_log(ss.str());
  if (kernels.empty())
    throw usage_error(fmt::format("ptxas log '{}' holds no entry function (expected the "
                                  "output of nvcc -Xptxas -v)",
                                  path));
  for (const auto& k : kernels) {
    ptxas[k.mangled_name] = k;
    ptxas[k.name] = k;
  }
  return ptxas;
}

// The rate of the series: FLOP/s when the algorithm sits right of the FP32 ridge.
void choose_rate(cliff_result& r, const kernel_descriptor& d, const cliff_options_run& o,
                 const std::vector<ceiling>& ceilings) {
  const problem_size s0 = o.size.value_or(d.default_size);
  const double fl = d.total_flops(s0), by = d.minimal_bytes(s0);
  const ceiling* fp32 = find_compute_ceiling(ceilings, precision::fp32);
  const ceiling* dram = find_memory_ceiling(ceilings, memory_level::dram);
  const double ridge = fp32 && dram && dram->value > 0 ? fp32->value / dram->value : 10;
  const bool compute = by > 0 ? fl / by > ridge : fl > 0;
  r.rate_name = compute ? "FLOP/s" : "bandwidth";
  r.rate_unit = compute ? "FLOP/s" : "B/s";
}

// A profiler session for the counters, or null with the reason in r.counters_note.
std::unique_ptr<profiler_session> open_counters(const cliff_options_run& o, const warn_fn& warn,
                                                cliff_result& r) {
  if (!o.counters) {
    r.counters_note = "counters turned off";
    return nullptr;
  }
  std::unique_ptr<profiler_session> session;
  const profiler_status status = check_profiler(o.device);
  if (!status.ok) {
    r.counters_note = status.message + (status.hint.empty() ? "" : " (" + status.hint + ")");
  } else {
    try {
      profiler_options po;
      po.warn = warn;
      po.config_cache_dir = default_cache_dir();
      session = std::make_unique<profiler_session>(o.device, "roofline", po);
    } catch (const error& e) {
      r.counters_note = e.what();
    }
  }
  if (!session)
    warn("counters unavailable, achieved occupancy not measured: " + r.counters_note);
  return session;
}

// What the points of one sweep share.
struct sweep_context {
  const cliff_options_run& o;
  const kernel_descriptor& d;
  const arch_spec& arch;
  const device_model& model;
  const std::vector<ceiling>& ceilings;
  const std::map<std::string, ptxas_kernel>& ptxas;
  profiler_session* session;
  cudaStream_t stream;
  warn_fn warn;
  std::string rate_unit;
};

// The launch of the instance, its registers and local memory, and the spills the ptxas log
// gives for its function.
const void* read_launch(const sweep_context& x, kernel_instance& inst, cliff_point& p) {
  const launch_config lc = inst.launch();
  p.grid = std::int64_t{lc.grid[0]} * lc.grid[1] * lc.grid[2];
  p.block = int(lc.block[0] * lc.block[1] * lc.block[2]);
  p.dynamic_smem = lc.dynamic_smem_bytes;
  p.static_smem = lc.static_smem_bytes;
  p.registers = int(lc.registers_per_thread);
  const void* fn = inst.kernel_function();
  cudaFuncAttributes attr{};
  ROOFKIT_CUDA_CHECK(cudaFuncGetAttributes(&attr, fn));
  p.local_bytes = std::int64_t(attr.localSizeBytes);
  if (!x.ptxas.empty()) {
    const char* name = nullptr;
    if (cudaFuncGetName(&name, fn) == cudaSuccess && name) {
      if (auto it = x.ptxas.find(name); it != x.ptxas.end()) {
        p.spill_stores = it->second.spill_stores;
        p.spill_loads = it->second.spill_loads;
        if (it->second.registers != p.registers)
          p.message = fmt::format("ptxas log says {} registers, the loaded function {}",
                                  it->second.registers, p.registers);
      }
    }
    cudaGetLastError();
  }
  return fn;
}

// The CUDA runtime's block count beside our engine's, a warning when they differ.
void compare_runtime_blocks(const sweep_context& x, const void* fn, int predicted, cliff_point& p) {
  int runtime_blocks = 0;
  if (p.dynamic_smem > 48 * 1024)
    ROOFKIT_CUDA_CHECK(
        cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, int(p.dynamic_smem)));
  ROOFKIT_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &runtime_blocks, fn, p.block, static_cast<std::size_t>(p.dynamic_smem)));
  p.counted["runtime_active_blocks"] = runtime_blocks;
  if (runtime_blocks != predicted)
    x.warn(fmt::format("{} at {} {}: our engine predicts {} blocks per SM, the CUDA runtime {}",
                       x.d.name, to_string(x.o.axis), p.value, predicted, runtime_blocks));
}

void time_point(const sweep_context& x, kernel_instance& inst, problem_size size, cliff_point& p) {
  timing_options t;
  t.device = x.o.device;
  t.warmup = x.o.warmup;
  t.repetitions = x.o.repetitions;
  t.flush_l2 = x.o.flush_l2;
  t.observe_clock = false;
  t.stream = x.stream;
  const timing_result tr = time_kernel([&](cudaStream_t s) { inst.run(s); }, t);
  p.time_median_s = tr.time.median_s;
  p.time_min_s = tr.time.min_s;
  p.time_max_s = tr.time.max_s;
  p.repetitions = tr.time.repetitions;
  p.spread = relative_spread(tr.samples_s);
  p.flops = x.d.total_flops(size);
  p.bytes = x.d.minimal_bytes(size);
}

// The counters of one more run: achieved occupancy, bytes per level, FLOPs, clocks; returns the
// DRAM bytes (counted when available, else the algorithm's).
double count_point(const sweep_context& x, kernel_instance& inst, cliff_point& p) {
  double dram_bytes = p.bytes;
  if (!x.session || !x.d.counter_profiled)
    return dram_bytes;
  auto ranges = x.session->profile([&] { inst.run(x.stream); });
  if (ranges.empty())
    return dram_bytes;
  const auto counts = derive_roofline_counts(x.session->metrics(), ranges.front().values);
  if (counts.achieved_occupancy)
    p.occupancy_achieved = *counts.achieved_occupancy;
  for (const auto& [level, b] : counts.bytes)
    p.counted[to_string(level) + "_bytes"] = b;
  double fl = 0;
  for (const auto& [prec, f] : counts.flops)
    fl += f;
  p.counted["flops"] = fl;
  if (counts.sm_clock_hz > 0)
    p.counted["sm_clock_mhz"] = counts.sm_clock_hz / 1e6;
  if (counts.dram_clock_hz > 0)
    p.counted["dram_clock_mhz"] = counts.dram_clock_hz / 1e6;
  if (counts.time_s > 0)
    p.counted["gpu_time_s"] = counts.time_s;
  if (auto it = counts.bytes.find(memory_level::dram); it != counts.bytes.end())
    dram_bytes = it->second;
  return dram_bytes;
}

// The rate of the series and the point's place under the roofs.
void place_point(const sweep_context& x, problem_size size, double dram_bytes, cliff_point& p) {
  const double work = x.rate_unit == "FLOP/s" ? p.flops : p.bytes;
  p.rate = p.time_median_s > 0 ? work / p.time_median_s : 0;
  kernel_result k = analytical_kernel(x.d.name, x.d.flops(size), {{memory_level::dram, dram_bytes}},
                                      p.time_median_s);
  const kernel_placement pl = place_kernel(k, x.ceilings);
  for (const auto& lp : pl.levels)
    if (lp.level == memory_level::dram)
      p.intensity = lp.intensity;
  p.attainable = pl.attainable_flops;
  p.pct_of_roof = pl.pct_of_roof;
  p.bound = pl.bound;
}

void skip(cliff_point& p, std::string why) {
  p.status = "skipped";
  p.message = std::move(why);
}

// One point: skipped when the size or the memory does not allow it or no block fits; else one
// verified run, the timed repetitions, the counters and the placement.
void run_point(const sweep_context& x, const launch_shape& shape, problem_size size,
               cliff_point& p) {
  const kernel_descriptor& d = x.d;
  if (size < d.min_size || size > d.max_size)
    return skip(p, fmt::format("size outside {}..{}", d.min_size, d.max_size));
  p.working_set_bytes = d.device_bytes ? d.device_bytes(size) : 0;
  std::size_t free_b = 0, total_b = 0;
  ROOFKIT_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  if (p.working_set_bytes * 1.1 + (256 << 20) > double(free_b))
    return skip(p, fmt::format("needs {:.2f} GB, {:.2f} GB free", p.working_set_bytes / 1e9,
                               double(free_b) / 1e9));
  auto inst = d.make_shaped ? d.make_shaped(shape) : d.make();
  inst->setup(size);
  const void* fn = read_launch(x, *inst, p);
  const occupancy_result occ = detail::predict_occupancy(x.arch, p);
  if (occ.active_blocks == 0)
    return skip(p, "no block fits: " + occ.reason);
  p.waves = double(p.grid) / double(occ.active_blocks * x.model.sm_count);
  compare_runtime_blocks(x, fn, occ.active_blocks, p);
  inst->run(x.stream);
  ROOFKIT_CUDA_CHECK(cudaStreamSynchronize(x.stream));
  const verification ver = inst->verify();
  if (!ver.ok) {
    p.status = "failed";
    p.message = "verification failed: " + ver.message;
    x.warn(fmt::format("{} at {} {}: VERIFICATION FAILED: {}", d.name, to_string(x.o.axis), p.value,
                       ver.message));
    return;
  }
  time_point(x, *inst, size, p);
  const double dram_bytes = count_point(x, *inst, p);
  place_point(x, size, dram_bytes, p);
  inst->teardown();
}

cliff_point measure_point(const sweep_context& x, std::int64_t v) {
  cliff_point p;
  p.value = v;
  launch_shape shape;
  problem_size size = x.o.size.value_or(x.d.default_size);
  switch (x.o.axis) {
  case sweep_axis::block:
    shape.block = static_cast<std::uint32_t>(v);
    break;
  case sweep_axis::smem:
    shape.dynamic_smem_bytes = static_cast<std::uint32_t>(v);
    break;
  case sweep_axis::regs:
    shape.register_cap = static_cast<int>(v);
    break;
  case sweep_axis::size:
    size = v;
    break;
  }
  p.size = size;
  p.register_cap = shape.register_cap;
  try {
    run_point(x, shape, size, p);
  } catch (const error& e) {
    p.status = e.code() == exit_code::usage ? "skipped" : "error";
    p.message = e.what();
    x.warn(fmt::format("{} at {} {}: {}", x.d.name, to_string(x.o.axis), v, e.what()));
    cudaGetLastError();
  }
  return p;
}

// The device, its clocks, the versions and the options, as the cliff file records them.
void record_context(cliff_result& r, const device_model& model, const cliff_options_run& o,
                    const clock_reading& clock) {
  r.device = model.name;
  r.cc_major = model.cc_major;
  r.cc_minor = model.cc_minor;
  r.sm_count = model.sm_count;
  r.l2_bytes = double(model.l2_bytes);
  r.l1_bytes = double(model.l1_shared_bytes_per_sm);
  r.sm_clock_mhz = clock.mhz;
  r.mem_clock_mhz = model.memory_clock_mhz;
  r.date = utc_timestamp();
  r.host = host_name();
  r.tool_version = std::string(tool_version());
  r.git_revision = std::string(git_revision());
  auto [driver, runtime] = query_cuda_versions();
  r.driver_version = std::move(driver);
  r.runtime_version = std::move(runtime);
  r.command = o.command;
  r.extra["sm_clock_method"] = clock.method;
  r.extra["repetitions"] = std::to_string(o.repetitions);
  r.extra["l2_flush"] = o.flush_l2 ? "yes" : "no";
  if (!o.ptxas_log.empty())
    r.extra["ptxas_log"] = o.ptxas_log;
}

} // namespace

cliff_result run_cliff_sweep(const cliff_options_run& o) {
  const warn_fn warn = o.warn ? o.warn : [](const std::string& s) {
    std::cerr << "roofkit: warning: " << s << '\n';
  };
  const kernel_descriptor& d = sweepable_kernel(o);
  cliff_result r;
  r.kernel = d.name;
  r.kernel_description = d.description;
  r.axis = o.axis;
  r.options = o.detection;
  const auto values = values_for(d, o, r.range);
  const auto ptxas = read_ptxas(o.ptxas_log);

  if (visible_device_count() == 0)
    throw no_device_error("no CUDA GPU visible: cliff needs one");
  ROOFKIT_CUDA_CHECK(cudaSetDevice(o.device));
  const device_model model = query_device(o.device);
  const arch_spec* arch = find_arch(model.cc_major, model.cc_minor);
  if (!arch)
    throw runtime_error(fmt::format("no architecture table for CC {}.{}: no occupancy prediction",
                                    model.cc_major, model.cc_minor));
  const std::vector<ceiling> ceilings = theoretical_ceilings(model);
  choose_rate(r, d, o, ceilings);
  const auto session = open_counters(o, warn, r);

  stream_guard guard;
  const sweep_context x{
      o, d, *arch, model, ceilings, ptxas, session.get(), guard.stream, warn, r.rate_unit};
  r.points =
      detail::sweep_points(values, o.progress, [&](std::int64_t v) { return measure_point(x, v); });
  record_context(r, model, o, observe_sm_clock(o.device, guard.stream));
  analyze_cliffs(r);
  return r;
}

} // namespace roofkit

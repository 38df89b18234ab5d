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

namespace roofkit {

namespace {

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

} // namespace

cliff_result run_cliff_sweep(const cliff_options_run& o) {
  auto warn = o.warn ? o.warn
                     : [](const std::string& s) { std::cerr << "roofkit: warning: " << s << '\n'; };
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

  cliff_result r;
  r.kernel = d->name;
  r.kernel_description = d->description;
  r.axis = o.axis;
  r.options = o.detection;
  const auto values = values_for(*d, o, r.range);

  std::map<std::string, ptxas_kernel> ptxas;
  if (!o.ptxas_log.empty()) {
    std::ifstream in(o.ptxas_log);
    if (!in)
      throw usage_error(fmt::format("cannot read ptxas log '{}'", o.ptxas_log));
    std::stringstream ss;
    ss << in.rdbuf();
    const auto kernels = parse_ptxas_log(ss.str());
    if (kernels.empty())
      throw usage_error(fmt::format("ptxas log '{}' holds no entry function (expected the "
                                    "output of nvcc -Xptxas -v)",
                                    o.ptxas_log));
    for (const auto& k : kernels) { // the runtime may name a function either way
      ptxas[k.mangled_name] = k;
      ptxas[k.name] = k;
    }
  }

  if (visible_device_count() == 0)
    throw no_device_error("no CUDA GPU visible: cliff needs one");
  ROOFKIT_CUDA_CHECK(cudaSetDevice(o.device));
  const device_model model = query_device(o.device);
  const arch_spec* arch = find_arch(model.cc_major, model.cc_minor);
  if (!arch)
    throw runtime_error(fmt::format("no architecture table for CC {}.{}: no occupancy prediction",
                                    model.cc_major, model.cc_minor));
  const std::vector<ceiling> ceilings = theoretical_ceilings(model);

  // The rate of the series: FLOP/s when the algorithm sits right of the FP32 ridge.
  {
    const problem_size s0 = o.size.value_or(d->default_size);
    const double fl = d->total_flops(s0), by = d->minimal_bytes(s0);
    const ceiling* fp32 = find_compute_ceiling(ceilings, precision::fp32);
    const ceiling* dram = find_memory_ceiling(ceilings, memory_level::dram);
    const double ridge = fp32 && dram && dram->value > 0 ? fp32->value / dram->value : 10;
    const bool compute = by > 0 ? fl / by > ridge : fl > 0;
    r.rate_name = compute ? "FLOP/s" : "bandwidth";
    r.rate_unit = compute ? "FLOP/s" : "B/s";
  }

  std::unique_ptr<profiler_session> session;
  if (o.counters) {
    const profiler_status status = check_profiler(o.device);
    if (!status.ok) {
      r.counters_note = status.message + (status.hint.empty() ? "" : " (" + status.hint + ")");
    } else {
      try {
        profiler_options po;
        po.warn = warn;
        session = std::make_unique<profiler_session>(o.device, "roofline", po);
      } catch (const error& e) {
        r.counters_note = e.what();
      }
    }
    if (!session)
      warn("counters unavailable, achieved occupancy not measured: " + r.counters_note);
  } else {
    r.counters_note = "counters turned off";
  }

  stream_guard guard;
  const cudaStream_t stream = guard.stream;
  std::size_t done = 0;
  for (const std::int64_t v : values) {
    if (o.progress)
      o.progress(done, values.size(), v);
    cliff_point p;
    p.value = v;
    launch_shape shape;
    problem_size size = o.size.value_or(d->default_size);
    switch (o.axis) {
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
      if (size < d->min_size || size > d->max_size) {
        p.status = "skipped";
        p.message = fmt::format("size outside {}..{}", d->min_size, d->max_size);
        r.points.push_back(p);
        ++done;
        continue;
      }
      p.working_set_bytes = d->device_bytes ? d->device_bytes(size) : 0;
      std::size_t free_b = 0, total_b = 0;
      ROOFKIT_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
      if (p.working_set_bytes * 1.1 + (256 << 20) > double(free_b)) {
        p.status = "skipped";
        p.message = fmt::format("needs {:.2f} GB, {:.2f} GB free", p.working_set_bytes / 1e9,
                                double(free_b) / 1e9);
        r.points.push_back(p);
        ++done;
        continue;
      }
      auto inst = d->make_shaped ? d->make_shaped(shape) : d->make();
      inst->setup(size);
      const launch_config lc = inst->launch();
      p.grid = std::int64_t{lc.grid[0]} * lc.grid[1] * lc.grid[2];
      p.block = int(lc.block[0] * lc.block[1] * lc.block[2]);
      p.dynamic_smem = lc.dynamic_smem_bytes;
      p.static_smem = lc.static_smem_bytes;
      p.registers = int(lc.registers_per_thread);
      const void* fn = inst->kernel_function();
      cudaFuncAttributes attr{};
      ROOFKIT_CUDA_CHECK(cudaFuncGetAttributes(&attr, fn));
      p.local_bytes = std::int64_t(attr.localSizeBytes);
      if (!ptxas.empty()) {
        const char* name = nullptr;
        if (cudaFuncGetName(&name, fn) == cudaSuccess && name) {
          if (auto it = ptxas.find(name); it != ptxas.end()) {
            p.spill_stores = it->second.spill_stores;
            p.spill_loads = it->second.spill_loads;
            if (it->second.registers != p.registers)
              p.message = fmt::format("ptxas log says {} registers, the loaded function {}",
                                      it->second.registers, p.registers);
          }
        }
        cudaGetLastError();
      }
      launch_params lp;
      lp.threads_per_block = p.block;
      lp.registers_per_thread = p.registers;
      lp.static_smem = p.static_smem;
      lp.dynamic_smem = p.dynamic_smem;
      const occupancy_result occ = compute_occupancy(*arch, lp);
      p.occupancy_theoretical = occ.occupancy;
      p.active_blocks = occ.active_blocks;
      p.limiter = limiter_names(occ.limiters);
      if (occ.active_blocks == 0) {
        p.status = "skipped";
        p.message = "no block fits: " + occ.reason;
        r.points.push_back(p);
        ++done;
        continue;
      }
      p.waves = double(p.grid) / double(occ.active_blocks * model.sm_count);
      int runtime_blocks = 0;
      if (p.dynamic_smem > 48 * 1024)
        ROOFKIT_CUDA_CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                int(p.dynamic_smem)));
      ROOFKIT_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
          &runtime_blocks, fn, p.block, static_cast<std::size_t>(p.dynamic_smem)));
      p.counted["runtime_active_blocks"] = runtime_blocks;
      if (runtime_blocks != occ.active_blocks)
        warn(fmt::format("{} at {} {}: our engine predicts {} blocks per SM, the CUDA runtime {}",
                         d->name, to_string(o.axis), v, occ.active_blocks, runtime_blocks));

      inst->run(stream);
      ROOFKIT_CUDA_CHECK(cudaStreamSynchronize(stream));
      const verification ver = inst->verify();
      if (!ver.ok) {
        p.status = "failed";
        p.message = "verification failed: " + ver.message;
        warn(fmt::format("{} at {} {}: VERIFICATION FAILED: {}", d->name, to_string(o.axis), v,
                         ver.message));
        r.points.push_back(p);
        ++done;
        continue;
      }
      timing_options t;
      t.device = o.device;
      t.warmup = o.warmup;
      t.repetitions = o.repetitions;
      t.flush_l2 = o.flush_l2;
      t.observe_clock = false;
      t.stream = stream;
      const timing_result tr = time_kernel([&](cudaStream_t s) { inst->run(s); }, t);
      p.time_median_s = tr.time.median_s;
      p.time_min_s = tr.time.min_s;
      p.time_max_s = tr.time.max_s;
      p.repetitions = tr.time.repetitions;
      p.spread = relative_spread(tr.samples_s);
      p.flops = d->total_flops(size);
      p.bytes = d->minimal_bytes(size);

      double dram_bytes = p.bytes;
      if (session && d->counter_profiled) {
        auto ranges = session->profile([&] { inst->run(stream); });
        if (!ranges.empty()) {
          const auto counts = derive_roofline_counts(session->metrics(), ranges.front().values);
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
        }
      }
      const double work = r.rate_unit == "FLOP/s" ? p.flops : p.bytes;
      p.rate = p.time_median_s > 0 ? work / p.time_median_s : 0;
      kernel_result k = analytical_kernel(d->name, d->flops(size),
                                          {{memory_level::dram, dram_bytes}}, p.time_median_s);
      const kernel_placement pl = place_kernel(k, ceilings);
      for (const auto& lp2 : pl.levels)
        if (lp2.level == memory_level::dram)
          p.intensity = lp2.intensity;
      p.attainable = pl.attainable_flops;
      p.pct_of_roof = pl.pct_of_roof;
      p.bound = pl.bound;
      inst->teardown();
    } catch (const error& e) {
      p.status = e.code() == exit_code::usage ? "skipped" : "error";
      p.message = e.what();
      warn(fmt::format("{} at {} {}: {}", d->name, to_string(o.axis), v, e.what()));
      cudaGetLastError();
    }
    r.points.push_back(std::move(p));
    ++done;
  }
  if (o.progress)
    o.progress(done, values.size(), values.back());

  const clock_reading clock = observe_sm_clock(o.device, stream);
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
  analyze_cliffs(r);
  return r;
}

} // namespace roofkit

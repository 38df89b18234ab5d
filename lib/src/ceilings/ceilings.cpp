// measure_ceilings: memory levels (DRAM streams, working-set sweeps, shared memory), CUDA-core
// FMA, tensor cores (mma.sync, wgmma) and the references, in one process.
#include "roofkit/ceilings.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "ceiling_kernels.hpp"
#include "measure_context.hpp"
#include "roofkit/core.hpp"

namespace roofkit {

namespace {

using namespace ceilings_detail;
namespace ck = ceiling_kernels;

constexpr double MiB = 1024.0 * 1024.0;

double theoretical_value(const std::vector<ceiling>& roofs, std::optional<precision> p,
                         std::optional<memory_level> l) {
  const ceiling* c = theoretical_roof(roofs, p, l);
  return c ? c->value : 0;
}

// A candidate's event time, checked once more against the host's clock.
void cross_check(measure_context& ctx, ceiling_measurement& m, const shaped_launch& launch,
                 int blocks, int threads) {
  if (m.check != "ok")
    return;
  if (auto why = ctx.cross_check_host_clock(launch, blocks, threads, m.time.median_s); !why.empty())
    m.check = std::move(why);
}

// ---- DRAM streams ----

struct stream_kind {
  int kind;
  const char* name;
  int arrays; // bytes per element = 16 x arrays
  const char* counted;
};
constexpr stream_kind stream_kinds[] = {
    {0, "DRAM read stream", 1, "bytes read"},
    {1, "DRAM write stream", 1, "bytes written"},
    {2, "DRAM copy stream", 2, "bytes read + written"},
    {3, "DRAM triad stream", 3, "bytes read + written (a = b + s c)"},
};

void measure_streams(measure_context& ctx, const std::vector<ceiling>& theoretical,
                     const device_buffer& a, const device_buffer& b, const device_buffer& c,
                     std::size_t bytes, ceilings_result& out) {
  const std::size_t count = bytes / 16;
  const double roof = theoretical_value(theoretical, std::nullopt, memory_level::dram);
  const std::vector<int> threads_list =
      ctx.quick() ? std::vector<int>{512, 1024} : std::vector<int>{256, 512, 1024};
  const std::vector<int> waves = ctx.quick() ? std::vector<int>{1, 2} : std::vector<int>{1, 2, 4};
  for (const auto& k : stream_kinds) {
    ctx.step(k.name);
    ceiling_measurement best, failed;
    shaped_launch best_launch;
    int best_blocks = 0, best_threads = 0;
    for (int threads : threads_list)
      for (int w : waves) {
        const int blocks = ctx.sms() * (2048 / threads) * w;
        shaped_launch launch = [&, kind = k.kind](const ck::shape& s) {
          ck::stream(kind, a.as<float>(), b.as<float>(), c.as<float>(), count, 1.0f, s);
        };
        const timed t = ctx.run(launch, blocks, threads);
        auto m = make_measurement(
            k.name, "B/s", 16.0 * k.arrays * double(count), t, roof,
            fmt::format("float4 evict-first grid-stride stream over {:.0f} MiB per array, {} x {} "
                        "threads, 4 elements in flight per thread; {}; median of {}",
                        bytes / MiB, blocks, threads, k.counted, t.time.repetitions));
        if (m.check == "ok" && m.value > best.value) {
          best = m;
          best_launch = launch;
          best_blocks = blocks;
          best_threads = threads;
        } else if (m.check != "ok" && failed.check == "ok") {
          failed = m;
        }
      }
    if (!best_launch) // no configuration passed: the first failure is reported
      best = failed;
    best.level = memory_level::dram;
    if (best_launch)
      cross_check(ctx, best, best_launch, best_blocks, best_threads);
    out.measurements.push_back(best);
    if (best_launch && best.check == "ok") {
      ceiling_measurement& m = out.measurements.back();
      ctx.sustain(best_launch, best_blocks, best_threads, m);
    }
  }
}

// ---- working-set sweeps ----

struct sweep_kind {
  int kind;
  const char* name;
  int arrays;
  bool reads;
};
constexpr sweep_kind sweep_kinds[] = {
    {0, "read, L1 cached (ld.ca, 16 B)", 1, true}, {1, "read, L2 only (ld.cg, 16 B)", 1, true},
    {2, "read, L2 only (ld.cg, 8 B)", 1, true},    {3, "write (st, 16 B)", 1, false},
    {4, "copy (ld.cg + st, 16 B)", 2, false},      {5, "triad (ld.cg + st, 16 B)", 3, false},
};

void measure_sweeps(measure_context& ctx, const std::vector<ceiling>& theoretical,
                    const device_buffer& a, const device_buffer& b, const device_buffer& c,
                    std::size_t array_bytes, ceilings_result& out) {
  const double l2 = ctx.prop().l2CacheSize;
  // The L1s hold at least what the SMs can give to shared memory (L1 and shared memory are one
  // array); a cached read beyond that mixes L1 and L2 hits.
  const double l1_total = double(ctx.prop().sharedMemPerMultiprocessor) * ctx.sms();
  const int threads = 1024, blocks = ctx.sms() * 2;
  // The L2 rates alternate by up to 15% between neighbouring working sets (power-of-two ones are
  // slower on the H100), so the plateau fit needs several points per octave to be stable.
  const double factor = ctx.quick() ? std::sqrt(2.0) : std::pow(2.0, 0.25);
  const double target = ctx.quick() ? 256 * MiB : 1024 * MiB;
  const int reps = ctx.quick() ? 3 : 5;
  const std::vector<int> kinds =
      ctx.quick() ? std::vector<int>{0, 5, 3} : std::vector<int>{0, 1, 2, 3, 4, 5};
  for (int kind : kinds) {
    const sweep_kind& k = sweep_kinds[kind];
    ctx.step(std::string("sweep: ") + k.name);
    sweep_curve curve;
    curve.name = k.name;
    std::vector<double> clocks;
    unsigned failed = 0;
    std::string time_error;
    const double max_ws = std::min(4 * l2, double(array_bytes) * k.arrays);
    for (double ws = 16 * 1024.0; ws <= max_ws * 1.0001; ws *= factor) {
      const std::size_t slice4 =
          static_cast<std::size_t>(ws / k.arrays / 16 / blocks); // float4 per block and array
      if (slice4 == 0)
        continue;
      const double actual_ws = double(slice4) * 16 * blocks * k.arrays;
      const int passes = std::max(1, int(std::ceil(target / actual_ws)));
      for (int p : {passes, 2 * passes}) {
        const timed t = ctx.run(
            [&](const ck::shape& s) {
              ck::sweep(kind, a.as<float>(), b.as<float>(), c.as<float>(), slice4, p, 1.0f, s);
            },
            blocks, threads, 1, reps);
        failed += t.errors;
        if (!t.time_check.empty() && time_error.empty())
          time_error = t.time_check;
        curve.points.push_back({actual_ws, actual_ws * p, t.time.median_s});
        if (t.sm_clock_mhz > 0)
          clocks.push_back(t.sm_clock_mhz);
      }
    }
    std::sort(clocks.begin(), clocks.end());
    curve.sm_clock_mhz = clocks.empty() ? 0 : clocks[clocks.size() / 2];
    curve.plateaus = find_plateaus(curve.points);
    if (failed || !time_error.empty()) { // report, and take no roof from this sweep
      ceiling_measurement m;
      m.name = std::string("sweep: ") + k.name;
      m.unit = "B/s";
      m.check = failed ? fmt::format("{} failed result checks", failed) : time_error;
      m.method = "working-set sweep; its plateaus are not used";
      out.measurements.push_back(m);
      curve.plateaus.clear();
    }
    for (const plateau& p : curve.plateaus) {
      const auto level = sweep_plateau_level(kind == 0, p.working_set_max, l1_total, l2);
      if (!level)
        continue;
      ceiling_measurement m;
      m.name = fmt::format("{} plateau: {}", *level == memory_level::l1 ? "L1" : "L2", k.name);
      m.unit = "B/s";
      m.value = m.best = p.bandwidth;
      m.level = level;
      m.theoretical = theoretical_value(theoretical, std::nullopt, level);
      m.sm_clock_mhz = curve.sm_clock_mhz;
      m.time.median_s = p.latency_s;
      m.method = fmt::format(
          "least squares time = latency + bytes / bandwidth over {} launches, working sets "
          "{:.3g}-{:.3g} MiB ({} blocks of {} threads, each going over its own slice; rms "
          "residual {:.1f}%, latency {:.1f} us)",
          p.points, p.working_set_min / MiB, p.working_set_max / MiB, blocks, threads,
          100 * p.rms_relative_residual, p.latency_s * 1e6);
      out.measurements.push_back(m);
    }
    out.sweeps.push_back(std::move(curve));
  }
}

void measure_shared(measure_context& ctx, const std::vector<ceiling>& theoretical,
                    ceilings_result& out) {
  ctx.step("shared memory");
  device_buffer sink(1024 * sizeof(float));
  // One calibrated, timed launch shape of a shared-memory kernel.
  auto measure = [&](const char* name, int blocks_per_sm, double bytes_per_iteration,
                     void (*kernel)(int, float*, const ck::shape&), int trial, const char* what,
                     const char* counted) {
    const int threads = 1024, blocks = ctx.sms() * blocks_per_sm;
    auto launch_n = [&](const ck::shape& s, int n) { kernel(n, sink.as<float>(), s); };
    const int n = ctx.calibrate(launch_n, blocks, threads, 2e-3, trial, trial << 10);
    const shaped_launch launch = [&](const ck::shape& s) { launch_n(s, n); };
    const timed t = ctx.run(launch, blocks, threads);
    auto m = make_measurement(name, "B/s", bytes_per_iteration * n * double(blocks) * threads, t,
                              theoretical_value(theoretical, std::nullopt, memory_level::l1),
                              fmt::format("{}, {} iterations, {} x {} threads; {}; median of {}",
                                          what, n, blocks, threads, counted, t.time.repetitions));
    m.level = memory_level::l1;
    cross_check(ctx, m, launch, blocks, threads);
    return m;
  };
  ceiling_measurement best;
  for (int bps : ctx.quick() ? std::vector<int>{2} : std::vector<int>{1, 2}) {
    auto m = measure("Shared memory read", bps, 16.0, ck::shared_read, 4096,
                     "float4 loads from a 32 KiB block buffer, index moving with the iteration "
                     "(no bank conflicts)",
                     "bytes loaded");
    if (m.value > best.value)
      best = m;
  }
  out.measurements.push_back(best);
  // The L1 level counts shared memory in wavefronts (128 B each, conflicts included), so its roof
  // is the wavefront rate: measured with loads that are all wavefronts and little issue.
  out.measurements.push_back(
      measure("Shared memory wavefronts", 2, 128.0, ck::shared_wavefronts, 256,
              "4-byte loads, every lane of a warp in the same bank (32 wavefronts per warp load)",
              "128 B per wavefront, as the L1 level counts shared memory"));
}

// ---- compute ----

struct candidate {
  ceiling_measurement m;
  shaped_launch launch;
  int blocks = 0, threads = 0;
};

// Keeps every variant in the report and the best per precision for the sustained run.
void keep(std::vector<candidate>& best, candidate c, ceilings_result& out) {
  out.measurements.push_back(c.m);
  if (c.m.check != "ok" || !c.m.prec)
    return;
  for (auto& b : best)
    if (b.m.prec == c.m.prec) {
      if (c.m.value > b.m.value)
        b = std::move(c);
      return;
    }
  best.push_back(std::move(c));
}

// `sums` (one double per thread of SMs x 8 blocks of 256) outlives the candidates' launches.
void measure_fma(measure_context& ctx, const std::vector<ceiling>& theoretical,
                 const device_buffer& sums, std::vector<candidate>& best, ceilings_result& out) {
  struct kind {
    ck::fma_type type;
    precision prec;
    const char* name;
    const char* sass;
    int lanes;
  };
  const kind kinds[] = {
      {ck::fma_type::fp64, precision::fp64, "FP64 FMA", "DFMA", 1},
      {ck::fma_type::fp32, precision::fp32, "FP32 FMA", "FFMA", 1},
      {ck::fma_type::fp16x2, precision::fp16, "FP16x2 FMA", "HFMA2", 2},
      {ck::fma_type::bf16x2, precision::bf16, "BF16x2 FMA", "HFMA2.BF16", 2},
  };
  const int threads = 256, blocks = ctx.sms() * 8;
  std::vector<double> host(std::size_t(blocks) * threads);
  for (const auto& k : kinds) {
    ctx.step(k.name);
    for (int chains : ctx.quick() ? std::vector<int>{16, 32} : std::vector<int>{8, 16, 24, 32}) {
      auto launch_n = [&, type = k.type, chains](const ck::shape& s, int n) {
        ck::fma_loop(type, chains, n, sums.as<double>(), s);
      };
      const int n = ctx.calibrate(launch_n, blocks, threads, 3e-3, 256, 1 << 24);
      shaped_launch launch = [launch_n, n](const ck::shape& s) { launch_n(s, n); };
      const timed t = ctx.run(launch, blocks, threads);
      candidate c;
      c.m = make_measurement(
          fmt::format("{} {} chains", k.name, chains), "FLOP/s",
          2.0 * k.lanes * chains * double(n) * blocks * threads, t,
          theoretical_value(theoretical, k.prec, std::nullopt),
          fmt::format("{} independent {} chains per thread x {} iterations, {} x {} threads; 2 "
                      "FLOP per FMA{}; median of {}",
                      chains, k.sass, n, blocks, threads, k.lanes == 2 ? " per lane" : "",
                      t.time.repetitions));
      c.m.prec = k.prec;
      ROOFKIT_CUDA_CHECK(
          cudaMemcpy(host.data(), sums.ptr, host.size() * sizeof(double), cudaMemcpyDeviceToHost));
      const auto wrong =
          std::count_if(host.begin(), host.end(), [&](double v) { return v != double(chains); });
      if (wrong)
        c.m.check = fmt::format("{} of {} threads did not end at {} (every chain converges to 1)",
                                wrong, host.size(), chains);
      cross_check(ctx, c.m, launch, blocks, threads);
      c.launch = launch;
      c.blocks = blocks;
      c.threads = threads;
      keep(best, std::move(c), out);
    }
  }
}

void measure_mma(measure_context& ctx, const std::vector<ceiling>& theoretical,
                 std::vector<candidate>& best, ceilings_result& out) {
  struct kind {
    ck::mma_type type;
    precision prec;
    const char* name;
    const char* unit;
  };
  const kind kinds[] = {
      {ck::mma_type::fp16, precision::tensor_fp16, "mma.sync FP16 m16n8k16", "FLOP/s"},
      {ck::mma_type::bf16, precision::tensor_fp16, "mma.sync BF16 m16n8k16", "FLOP/s"},
      {ck::mma_type::tf32, precision::tensor_tf32, "mma.sync TF32 m16n8k8", "FLOP/s"},
      {ck::mma_type::int8, precision::tensor_int8, "mma.sync INT8 m16n8k32", "OP/s"},
      {ck::mma_type::fp64, precision::tensor_fp64, "mma.sync FP64 m8n8k4", "FLOP/s"},
      {ck::mma_type::fp64_m16n8k16, precision::tensor_fp64, "mma.sync FP64 m16n8k16", "FLOP/s"},
  };
  const int threads = 256, blocks = ctx.sms() * 4;
  for (const auto& k : kinds) {
    if (k.type == ck::mma_type::fp64_m16n8k16 && ctx.prop().major < 9)
      continue;
    ctx.step(k.name);
    for (int chains : ctx.quick() ? std::vector<int>{8} : std::vector<int>{4, 8}) {
      auto launch_n = [type = k.type, chains](const ck::shape& s, int n) {
        ck::mma_loop(type, chains, n, s);
      };
      const int n = ctx.calibrate(launch_n, blocks, threads, 3e-3, 64, 1 << 20);
      shaped_launch launch = [launch_n, n](const ck::shape& s) { launch_n(s, n); };
      const timed t = ctx.run(launch, blocks, threads);
      candidate c;
      c.m = make_measurement(
          fmt::format("{} x{}", k.name, chains), k.unit,
          ck::mma_flops(k.type) * chains * double(n) * blocks * (threads / 32), t,
          theoretical_value(theoretical, k.prec, std::nullopt),
          fmt::format("{} independent accumulators per warp x {} iterations, all-ones operands "
                      "in registers, {} x {} threads; 2 x M x N x K per instruction; median of {}",
                      chains, n, blocks, threads, t.time.repetitions));
      c.m.prec = k.prec;
      cross_check(ctx, c.m, launch, blocks, threads);
      c.launch = launch;
      c.blocks = blocks;
      c.threads = threads;
      keep(best, std::move(c), out);
    }
  }
}

void measure_wgmma(measure_context& ctx, const std::vector<ceiling>& theoretical,
                   std::vector<candidate>& best, ceilings_result& out) {
  if (!ck::wgmma_built() || ctx.prop().major != 9 || ctx.prop().minor != 0)
    return;
  struct kind {
    ck::wgmma_type type;
    precision prec;
    const char* name;
    const char* unit;
  };
  const kind kinds[] = {
      {ck::wgmma_type::fp16, precision::tensor_fp16, "wgmma FP16 m64n256k16", "FLOP/s"},
      {ck::wgmma_type::bf16, precision::tensor_fp16, "wgmma BF16 m64n256k16", "FLOP/s"},
      {ck::wgmma_type::tf32, precision::tensor_tf32, "wgmma TF32 m64n256k8", "FLOP/s"},
      {ck::wgmma_type::fp8, precision::tensor_fp8, "wgmma FP8 e4m3 m64n256k32", "FLOP/s"},
      {ck::wgmma_type::int8, precision::tensor_int8, "wgmma INT8 m64n256k32", "OP/s"},
  };
  for (const auto& k : kinds) {
    ctx.step(k.name);
    for (int per_sm : ctx.quick() ? std::vector<int>{2} : std::vector<int>{2, 3}) {
      const int blocks = ctx.sms() * per_sm;
      auto launch_n = [type = k.type](const ck::shape& s, int n) { ck::wgmma_loop(type, n, s); };
      const int n = ctx.calibrate(launch_n, blocks, 128, 3e-3, 64, 1 << 16);
      shaped_launch launch = [launch_n, n](const ck::shape& s) { launch_n(s, n); };
      const timed t = ctx.run(launch, blocks, 128);
      candidate c;
      c.m = make_measurement(
          fmt::format("{}, {} warpgroups/SM", k.name, per_sm), k.unit,
          ck::wgmma_flops(k.type) * 4 * double(n) * blocks, t,
          theoretical_value(theoretical, k.prec, std::nullopt),
          fmt::format("one warpgroup per block, 4 wgmma per commit group, one group in flight, "
                      "{} iterations, operands all ones in shared memory (no global traffic), "
                      "{} blocks; 2 x M x N x K per instruction; median of {}",
                      n, blocks, t.time.repetitions));
      c.m.prec = k.prec;
      cross_check(ctx, c.m, launch, blocks, 128);
      c.launch = launch;
      c.blocks = blocks;
      c.threads = 128;
      keep(best, std::move(c), out);
    }
  }
}

} // namespace

ceilings_result measure_ceilings(const ceilings_options& options,
                                 const std::vector<ceiling>& theoretical) {
  const int count = visible_device_count();
  if (count == 0)
    throw no_device_error("no CUDA GPU visible: ceilings are measured on a GPU");
  require_device(options.device);
  ROOFKIT_CUDA_CHECK(cudaSetDevice(options.device));
  const auto start = std::chrono::steady_clock::now();
  measure_context ctx(options,
                      options.repetitions > 0 ? options.repetitions : (options.quick ? 5 : 10));
  ctx.set_total_steps(4 + (options.quick ? 3 : 6) + 1 + 4 + 6 + 5 + (options.references ? 2 : 0) +
                      (options.quick ? 0 : 9) + 1);
  ceilings_result result;

  std::size_t free_bytes = 0, total_bytes = 0;
  ROOFKIT_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const double l2 = ctx.prop().l2CacheSize;
  std::size_t bytes = static_cast<std::size_t>(options.quick ? std::max(8 * l2, 512 * MiB)
                                                             : std::max(16 * l2, 2048 * MiB));
  bytes = std::min(bytes, free_bytes / 4) / 4096 * 4096;
  {
    device_buffer a(bytes), b(bytes), c(bytes);
    ck::fill_float(b.as<float>(), bytes / 4, 1.0f, nullptr);
    ck::fill_float(c.as<float>(), bytes / 4, 1.0f, nullptr);
    ROOFKIT_CUDA_CHECK(cudaGetLastError());
    measure_streams(ctx, theoretical, a, b, c, bytes, result);
    if (options.references) {
      ctx.step("cudaMemcpy D2D");
      const timed t = ctx.run(
          [&](const ck::shape& s) {
            ROOFKIT_CUDA_CHECK(
                cudaMemcpyAsync(a.ptr, b.ptr, bytes, cudaMemcpyDeviceToDevice, s.stream));
          },
          1, 1);
      auto m = make_measurement(
          "cudaMemcpy D2D", "B/s", 2.0 * double(bytes), t,
          theoretical_value(theoretical, std::nullopt, memory_level::dram),
          fmt::format("cudaMemcpyAsync of {:.0f} MiB; bytes read + written; median of {}",
                      bytes / MiB, t.time.repetitions));
      m.sm_clock_mhz = 0;
      m.reference = true;
      m.level = memory_level::dram;
      result.measurements.push_back(m);
    }
    ck::fill_float(b.as<float>(), bytes / 4, 1.0f, nullptr);
    ck::fill_float(c.as<float>(), bytes / 4, 1.0f, nullptr);
    measure_sweeps(ctx, theoretical, a, b, c, bytes, result);
  }
  measure_shared(ctx, theoretical, result);

  std::vector<candidate> best;
  const device_buffer fma_sums(std::size_t(ctx.sms()) * 8 * 256 * sizeof(double));
  measure_fma(ctx, theoretical, fma_sums, best, result);
  measure_mma(ctx, theoretical, best, result);
  measure_wgmma(ctx, theoretical, best, result);
  if (ctx.sustained_s() > 0)
    for (auto& c : best) {
      ctx.step("sustained: " + c.m.name);
      for (auto& m : result.measurements)
        if (m.name == c.m.name) {
          ctx.sustain(c.launch, c.blocks, c.threads, m);
          break;
        }
    }
  if (options.references) {
    ctx.step("cuBLAS and cuBLASLt GEMMs");
    for (auto& m : measure_gemm_references(ctx, theoretical))
      result.measurements.push_back(std::move(m));
  }

  ctx.step("clocks");
  result.gpu = query_gpu_identity(options.device);
  result.cc_major = ctx.prop().major;
  result.cc_minor = ctx.prop().minor;
  result.sm_count = ctx.sms();
  const clock_reading clock = observe_sm_clock(options.device);
  result.sm_clock_mhz = clock.mhz;
  result.sm_clock_method = clock.method;
  int mem_khz = 0;
  ROOFKIT_CUDA_CHECK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, options.device));
  result.mem_clock_mhz = mem_khz / 1000.0;
  for (auto& m : result.measurements)
    if (const ceiling* roof = theoretical_roof(theoretical, m.prec, m.level)) {
      m.theoretical = roof->value;
      m.theoretical_clock_mhz = roof->sm_clock_mhz;
    }
  reject_above_hardware(result.measurements, result.gpu.sm_clock_mhz);
  result.ceilings = best_ceilings(result.measurements, result.mem_clock_mhz);
  result.elapsed_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

std::vector<ceiling> best_ceilings(const std::vector<ceiling_measurement>& measurements,
                                   double mem_clock_mhz) {
  std::vector<ceiling> out;
  const auto add = [&](const ceiling_measurement& m, bool memory) {
    for (auto& c : out)
      if (c.is_memory == memory && (memory ? c.level == *m.level : c.prec == *m.prec)) {
        if (m.value > c.value) {
          c.value = m.value;
          c.sm_clock_mhz = m.sm_clock_mhz;
          c.method = "measured: " + m.name + ", " + m.method;
        }
        return;
      }
    ceiling c;
    c.is_memory = memory;
    if (memory)
      c.level = *m.level;
    else
      c.prec = *m.prec;
    c.value = m.value;
    c.source = ceiling_source::measured;
    c.sm_clock_mhz = m.sm_clock_mhz;
    c.mem_clock_mhz = mem_clock_mhz;
    c.method = "measured: " + m.name + ", " + m.method;
    out.push_back(c);
  };
  // Microbenchmarks first; a reference raises only the DRAM roof (it moves data like a stream;
  // a GEMM's rate is a lower bound of its roof, not a roof).
  for (const auto& m : measurements)
    if (!m.reference && m.check == "ok" && m.value > 0 && (m.level || m.prec))
      add(m, m.level.has_value());
  for (const auto& m : measurements)
    if (m.reference && m.check == "ok" && m.value > 0 && m.level == memory_level::dram)
      add(m, true);
  return out;
}

} // namespace roofkit

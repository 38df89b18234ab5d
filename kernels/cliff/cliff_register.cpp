// Registers the cliff-sweep kernels: a memory-bound triad, a latency-bound pointer chase, a
// compute-bound FMA kernel and the register-cliff body at many register caps. Each takes its
// block size, dynamic shared memory and register cap from the sweep (kernel_descriptor::
// make_shaped); `roofline-cuda cliff` sweeps them, `bench` runs them at their defaults.
#include <algorithm>

#include "cliff/cliff_kernels.hpp"
#include "cliff/cliff_reference.hpp"
#include "common/array_kernel.hpp"
#include "common/check.hpp"
#include "common/text.hpp"
#include "registers/registers_reference.hpp"
#include "roofkit/core.hpp"

namespace roofkit::kernels {

namespace {

constexpr const char* notes_seed = "cuda-notes-warps-occupancy-roofline-gemm.txt";
// The seeds' performance-cliff sentence: measured by `roofline-cuda cliff`, not by a bench claim.
constexpr const char* cliff_claim = "A slight increase in a resource's use can cut occupancy, and "
                                    "with it performance, significantly (the performance cliff)";
constexpr std::size_t fully_checked = 1 << 16;
constexpr int fold_items_per_thread = 8;
constexpr unsigned fold_block = 512;

using spec_fn = std::function<array_kernel(const launch_shape&)>;

launch_config shaped_1d(std::int64_t threads, const launch_shape& s, unsigned default_block) {
  launch_config lc = launch_1d(threads, s.block ? s.block : default_block);
  lc.dynamic_smem_bytes = s.dynamic_smem_bytes;
  return lc;
}

// The descriptor's own launch and instances come from the unshaped spec; make_shaped builds a
// spec for any shape.
kernel_descriptor sweepable(kernel_descriptor d, const spec_fn& spec) {
  array_kernel base = spec({});
  d.launch = base.launch;
  d = with_array_kernel(std::move(d), std::move(base));
  d.make_shaped = [spec](const launch_shape& s) { return make_array_instance(spec(s)); };
  return d;
}

kernel_descriptor triad() {
  auto d = describe({.name = "cliff/triad",
                     .description = "a[i] = b[i] + 3 c[i], one element per thread: memory-bound",
                     .claim_id = "",
                     .seed_file = notes_seed,
                     .size_unit = "elements",
                     .default_size = problem_size{1} << 26,
                     .test_sizes = {1, 255, 100003},
                     .launch = nullptr,
                     .fp32_flops = [](problem_size n) { return 2.0 * double(n); },
                     .flops_formula = "2 N",
                     .minimal_bytes = [](problem_size n) { return 12.0 * double(n); },
                     .bytes_formula = "12 N",
                     .check = "bitwise: a = b + 3 c"});
  d.family = "cliff";
  d.claim = cliff_claim;
  d.max_size = problem_size{1} << 30;
  return sweepable(std::move(d), [](const launch_shape& s) {
    array_kernel k;
    auto count = [](problem_size n) { return static_cast<std::size_t>(n); };
    k.inputs = {{count}, {count}};
    k.outputs = {count};
    k.function = cliff_triad_function();
    k.launch = [s](problem_size n) { return shaped_1d(n, s, 256); };
    k.run = [s](const device_arrays& in, const device_arrays& out, problem_size n, std::uint64_t,
                cudaStream_t st) {
      launch_cliff_triad(shaped_1d(n, s, 256), out[0], in[0], in[1], std::uint32_t(n), st);
    };
    k.check = [](const host_arrays& in, const host_arrays& out, problem_size, std::uint64_t) {
      std::vector<float> want(in[0].size());
      for (std::size_t i = 0; i < want.size(); ++i) {
        const float p = 3.0f * in[1][i];
        want[i] = in[0][i] + p;
      }
      return compare_exact(out[0], want, "a = b + 3 c");
    };
    return k;
  });
}

kernel_descriptor chase() {
  const double t = chase_threads;
  auto d = describe(
      {.name = "cliff/chase",
       .description =
           cat("pointer chase: ", chase_threads, " threads each make ", chase_steps,
               " dependent loads from a table of N floats (the next index from the value loaded): "
               "latency-bound"),
       .claim_id = "",
       .seed_file = notes_seed,
       .size_unit = "table elements",
       .default_size = problem_size{1} << 26,
       .test_sizes = {1, 1000, 100003},
       .launch = nullptr,
       .fp32_flops = [t](problem_size) { return double(chase_steps) * t; },
       .flops_formula = cat(chase_steps, " T"),
       .minimal_bytes = [t](problem_size) { return 4.0 * double(chase_steps) * t + 4.0 * t; },
       .bytes_formula = cat(4 * chase_steps, " T + 4 T (T = ", chase_threads, " threads)"),
       .check =
           "bitwise against the same chain on the CPU; the first 65536 threads and 65536 random "
           "others"});
  d.family = "cliff";
  d.claim = cliff_claim;
  d.max_size = problem_size{1} << 30;
  return sweepable(std::move(d), [](const launch_shape& s) {
    array_kernel k;
    k.inputs = {{[](problem_size n) { return static_cast<std::size_t>(n); }}};
    k.outputs = {[](problem_size) { return std::size_t{chase_threads}; }};
    k.function = cliff_chase_function();
    k.launch = [s](problem_size) { return shaped_1d(chase_threads, s, 256); };
    k.run = [s](const device_arrays& in, const device_arrays& out, problem_size n, std::uint64_t,
                cudaStream_t st) {
      launch_cliff_chase(shaped_1d(chase_threads, s, 256), in[0], std::uint32_t(n), out[0], st);
    };
    k.check = [](const host_arrays& in, const host_arrays& out, problem_size, std::uint64_t) {
      const auto& table = in[0];
      return compare_sampled(
          out[0],
          [&](std::size_t i) { return chase_reference(table, std::uint32_t(i), chase_steps); },
          fully_checked, fully_checked, 0.0, 0.0, cat(chase_steps, " chained loads per thread"));
    };
    k.checked = [](problem_size, std::uint64_t) { return checked_range{0, 0, fully_checked}; };
    return k;
  });
}

kernel_descriptor fma() {
  constexpr double per_element = 2.0 * fma_chains * fma_iterations;
  auto d = describe(
      {.name = "cliff/fma",
       .description = cat("out[i] from ", fma_chains, " independent chains of ", fma_iterations,
                          " FMAs on in[i]: compute-bound"),
       .claim_id = "",
       .seed_file = notes_seed,
       .size_unit = "elements",
       .default_size = problem_size{1} << 24,
       .test_sizes = {1, 255, 100003},
       .launch = nullptr,
       .fp32_flops = [](problem_size n) { return per_element * double(n); },
       .flops_formula = cat(2 * fma_chains * fma_iterations, " N"),
       .minimal_bytes = [](problem_size n) { return 8.0 * double(n); },
       .bytes_formula = "8 N",
       .check = "bitwise against std::fma on the CPU; the first 65536 and 65536 random others"});
  d.family = "cliff";
  d.claim = cliff_claim;
  d.max_size = problem_size{1} << 30;
  return sweepable(std::move(d), [](const launch_shape& s) {
    array_kernel k;
    auto count = [](problem_size n) { return static_cast<std::size_t>(n); };
    k.inputs = {{count}};
    k.outputs = {count};
    k.function = cliff_fma_function();
    k.launch = [s](problem_size n) { return shaped_1d(n, s, 256); };
    k.run = [s](const device_arrays& in, const device_arrays& out, problem_size n, std::uint64_t,
                cudaStream_t st) {
      launch_cliff_fma(shaped_1d(n, s, 256), in[0], out[0], std::uint32_t(n), st);
    };
    k.check = [](const host_arrays& in, const host_arrays& out, problem_size, std::uint64_t) {
      const auto& x = in[0];
      return compare_sampled(
          out[0], [&](std::size_t i) { return fma_reference(x[i], fma_chains, fma_iterations); },
          fully_checked, fully_checked, 0.0, 0.0, cat(fma_chains, " FMA chains"));
    };
    k.checked = [](problem_size n, std::uint64_t) {
      return checked_range{0, 0, std::min(fully_checked, std::size_t(n))};
    };
    return k;
  });
}

kernel_descriptor fold_cap() {
  constexpr int k_acc = cliff_fold_accumulators;
  auto threads_of = [](problem_size n, unsigned block) {
    const auto lc = launch_1d((n + fold_items_per_thread - 1) / fold_items_per_thread, block);
    return std::size_t{lc.grid[0]} * block;
  };
  auto d = describe(
      {.name = "cliff/fold-cap",
       .description =
           cat("the register-cliff body (", k_acc,
               " live accumulators, 8 elements per thread, 512 threads per block) compiled at each "
               "register cap of the regs sweep"),
       .claim_id = "register-cliff",
       .seed_file = notes_seed,
       .size_unit = "elements",
       .default_size = problem_size{1} << 26,
       .test_sizes = {1, 511, 513, 100003},
       .launch = nullptr,
       .fp32_flops =
           [=](problem_size n) {
             return 2.0 * k_acc * double(n) + double(k_acc) * double(threads_of(n, fold_block));
           },
       .flops_formula = cat(2 * k_acc, " N + ", k_acc, " T (T threads)"),
       .minimal_bytes =
           [=](problem_size n) {
             return 4.0 * double(n) + 4.0 * double(threads_of(n, fold_block));
           },
       .bytes_formula = "4 N + 4 T",
       .check =
           "bitwise against the same float operations on the CPU; above 65536 threads the first "
           "65536 and 65536 random others"});
  d.family = "cliff";
  d.parameter_name = "register cap";
  d.parameter = cliff_register_caps().back();
  d.max_size = problem_size{1} << 31;
  d.register_caps = cliff_register_caps();
  return sweepable(std::move(d), [threads_of](const launch_shape& s) {
    const int cap = s.register_cap ? s.register_cap : cliff_register_caps().back();
    const auto& caps = cliff_register_caps();
    if (std::find(caps.begin(), caps.end(), cap) == caps.end())
      throw usage_error(cat("register cap ", cap, " has no compiled variant of cliff/fold-cap"));
    const unsigned block = s.block ? s.block : fold_block;
    auto launch = [s, block](problem_size n) {
      launch_shape b = s;
      b.block = block;
      return shaped_1d((n + fold_items_per_thread - 1) / fold_items_per_thread, b, block);
    };
    array_kernel k;
    k.inputs = {{[](problem_size n) { return static_cast<std::size_t>(n); }}};
    k.outputs = {[=](problem_size n) { return threads_of(n, block); }};
    k.function = cliff_fold_function(cap);
    k.launch = launch;
    k.run = [=](const device_arrays& in, const device_arrays& out, problem_size n, std::uint64_t,
                cudaStream_t st) {
      launch_cliff_fold(launch(n), cap, in[0], out[0], unsigned(n), st);
    };
    k.check = [=](const host_arrays& in, const host_arrays& out, problem_size n, std::uint64_t) {
      const auto threads = static_cast<std::uint64_t>(threads_of(n, block));
      const auto& x = in[0];
      return compare_sampled(
          out[0],
          [&](std::size_t t) { return fold_reference(x, t, threads, cliff_fold_accumulators); },
          fully_checked, fully_checked, 0.0, 0.0,
          cat(cliff_fold_accumulators, " accumulators per thread, register cap ", cap));
    };
    k.checked = [=](problem_size n, std::uint64_t) {
      return checked_range{0, 0, std::min(fully_checked, threads_of(n, block))};
    };
    return k;
  });
}

const kernel_registration registration{[] {
  return std::vector<kernel_descriptor>{triad(), chase(), fma(), fold_cap()};
}};

} // namespace

} // namespace roofkit::kernels

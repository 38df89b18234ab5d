// Registers the register-cliff kernels: one body compiled with register budgets on both sides
// of the 512-thread occupancy step, the seed's "two more variables", and a spilling variant.
#include "common/text.hpp"

#include "common/array_kernel.hpp"
#include "common/check.hpp"
#include "registers/registers_kernels.hpp"
#include "registers/registers_reference.hpp"

namespace roofkit::kernels {

namespace {

constexpr const char* notes_seed = "cuda-notes-warps-occupancy-roofline-gemm.txt";
constexpr std::size_t fully_checked = 1 << 16;

launch_config register_launch(problem_size n) {
  return launch_1d((n + register_items_per_thread - 1) / register_items_per_thread, register_block);
}

std::size_t threads_of(problem_size n) {
  return std::size_t{register_launch(n).grid[0]} * register_block;
}

kernel_descriptor fold_kernel(register_variant v, const char* name, const char* description,
                              const char* claim) {
  const int k_acc = register_accumulators(v);
  auto d = describe(
      {.name = name,
       .description = description,
       .claim_id = claim,
       .seed_file = notes_seed,
       .size_unit = "elements",
       .default_size = problem_size{1} << 26,
       .test_sizes = {1, 511, 513, 100003},
       .launch = register_launch,
       .fp32_flops =
           [k_acc](problem_size n) {
             return 2.0 * k_acc * double(n) + double(k_acc) * double(threads_of(n));
           },
       .flops_formula = cat(2 * k_acc, " N + ", k_acc, " T (T threads)"),
       .minimal_bytes =
           [](problem_size n) { return 4.0 * double(n) + 4.0 * double(threads_of(n)); },
       .bytes_formula = "4 N + 4 T",
       .check =
           "bitwise against the same float operations on the CPU; above 65536 threads the first "
           "65536 and 65536 random others"});
  d.family = "registers";
  d.parameter_name = "accumulators";
  d.parameter = k_acc;
  d.max_size = problem_size{1} << 31;
  array_kernel k;
  auto count = [](problem_size n) { return static_cast<std::size_t>(n); };
  k.inputs = {{count}};
  k.outputs = {threads_of};
  k.function = register_function(v);
  k.run = [v](const device_arrays& in, const device_arrays& out, problem_size n, std::uint64_t,
              cudaStream_t s) {
    launch_register_kernel(register_launch(n), v, in[0], out[0], unsigned(n), s);
  };
  k.check = [k_acc](const host_arrays& in, const host_arrays& out, problem_size n, std::uint64_t) {
    const auto threads = static_cast<std::uint64_t>(threads_of(n));
    const auto& x = in[0];
    return compare_sampled(
        out[0], [&](std::size_t t) { return fold_reference(x, t, threads, k_acc); }, fully_checked,
        fully_checked, 0.0, 0.0, cat(k_acc, " accumulators per thread"));
  };
  k.checked = [](problem_size n, std::uint64_t) {
    return checked_range{0, 0, std::min(fully_checked, threads_of(n))};
  };
  return with_array_kernel(std::move(d), std::move(k));
}

const kernel_registration registration{[] {
  return std::vector<kernel_descriptor>{
      fold_kernel(register_variant::k22_free, "registers/31-regs",
                  "22 live accumulators, 512 threads per block, compiled freely: 31 registers "
                  "(the seed's starting point), 4 blocks per SM, 100% occupancy",
                  "register-cliff"),
      fold_kernel(register_variant::k24_free, "registers/two-more-vars",
                  "the same with two more live accumulators (24), compiled freely: the "
                  "register count passes 32 and a fourth block of 512 no longer fits",
                  "register-cliff"),
      fold_kernel(register_variant::k26_cap32, "registers/maxnreg-32",
                  "26 accumulators with __maxnreg__(32): 32 registers (a few spilled bytes), "
                  "4 blocks of 512 per SM, 100% occupancy",
                  "register-cliff"),
      fold_kernel(register_variant::k26_cap33, "registers/maxnreg-33",
                  "the same body with __maxnreg__(33): 33 registers, 3 blocks of 512 per SM, "
                  "75% occupancy",
                  "register-cliff"),
      fold_kernel(register_variant::k26_cap24, "registers/spill",
                  "the same body with __maxnreg__(24): accumulators spill to local memory",
                  "register-spill"),
  };
}};

} // namespace

} // namespace roofkit::kernels

// Registers the shared-memory bank-conflict sweep: 1, 2, 4, ..., 32-way conflicts.
#include "common/text.hpp"

#include "common/array_kernel.hpp"
#include "common/check.hpp"
#include "smem/smem_kernels.hpp"
#include "smem/smem_reference.hpp"

namespace roofkit::kernels {

namespace {

constexpr const char* notes_seed = "cuda-notes-warps-occupancy-roofline-gemm.txt";

kernel_descriptor bank_conflicts(int ways) {
  auto launch = [](problem_size n) { return launch_1d(n, bank_block); };
  auto d = describe({.name = cat("smem/bank-conflict-", ways),
                     .description = cat(
                         bank_reps, " volatile shared loads per thread at word lane * ", ways, ": ",
                         ways == 1 ? "every lane in its own bank (no conflict)"
                                   : cat(ways, "-way bank conflicts")),
                     .claim_id = ways == 1 ? "bank-conflict-time" : "bank-conflict-32-way",
                     .seed_file = notes_seed,
                     .size_unit = "threads",
                     .default_size = problem_size{1} << 22,
                     .test_sizes = {1, 255, 257, 100003},
                     .launch = launch,
                     .fp32_flops = [](problem_size n) { return double(bank_reps) * double(n); },
                     .flops_formula = cat(bank_reps, " N"),
                     .minimal_bytes = [](problem_size n) { return 8.0 * double(n); },
                     .bytes_formula = "8 N",
                     .check = cat("bitwise: out = ", bank_reps, " in (integer-valued inputs)")});
  d.family = "smem/bank-conflict";
  d.parameter_name = "ways";
  d.parameter = ways;
  d.max_size = (problem_size{1} << 32) - 1;
  array_kernel k;
  auto count = [](problem_size n) { return static_cast<std::size_t>(n); };
  k.inputs = {{count, value_kind::integers}};
  k.outputs = {count};
  k.function = bank_conflict_function(ways);
  k.run = [ways, launch](const device_arrays& in, const device_arrays& out, problem_size n,
                         std::uint64_t, cudaStream_t s) {
    launch_bank_conflicts(launch(n), ways, in[0], out[0], unsigned(n), s);
  };
  k.check = [](const host_arrays& in, const host_arrays& out, problem_size, std::uint64_t) {
    std::vector<float> want(in[0].size());
    repeated_sum_reference(in[0], want, bank_reps);
    return compare_exact(out[0], want, cat("out = ", bank_reps, " in"));
  };
  return with_array_kernel(std::move(d), std::move(k));
}

const kernel_registration registration{[] {
  std::vector<kernel_descriptor> all;
  for (int ways : {1, 2, 4, 8, 16, 32})
    all.push_back(bank_conflicts(ways));
  return all;
}};

} // namespace

} // namespace roofkit::kernels

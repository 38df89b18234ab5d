// Registers the divergence kernels: if/else split at different lane boundaries against a
// warp-uniform split, and the boundary check of a vector add at N = 100, 1000, 10000.
#include "common/text.hpp"

#include "common/array_kernel.hpp"
#include "common/check.hpp"
#include "divergence/divergence_kernels.hpp"
#include "divergence/divergence_reference.hpp"
#include "vadd/vadd_kernels.hpp"
#include "vadd/vadd_reference.hpp"

namespace roofkit::kernels {

namespace {

constexpr const char* notes_seed = "cuda-notes-warps-occupancy-roofline-gemm.txt";
constexpr std::size_t fully_checked = 1 << 16;

kernel_descriptor branches(int split) {
  auto launch = [](problem_size n) { return launch_1d(n, 256); };
  auto d = describe(
      {.name = split == 0 ? "divergence/warp-uniform" : cat("divergence/split-", split),
       .description = split == 0
                          ? cat("if/else chosen per warp (even warps path A, odd warps path B), ",
                                branch_iterations, " iterations each: no warp diverges")
                          : cat("if/else chosen per lane (lanes 0-", split - 1, " path A, ", split,
                                "-31 path B), ", branch_iterations,
                                " iterations each: every warp runs both paths"),
       .claim_id = "divergence-both-paths",
       .seed_file = notes_seed,
       .size_unit = "threads",
       .default_size = problem_size{1} << 22,
       .test_sizes = {1, 31, 33, 1000},
       .launch = launch,
       .fp32_flops = [](problem_size n) { return 2.0 * branch_iterations * double(n); },
       .flops_formula = cat(2 * branch_iterations, " N"),
       .minimal_bytes = [](problem_size n) { return 8.0 * double(n); },
       .bytes_formula = "8 N",
       .check =
           "|err| <= 1e-6 against the same float operations on the CPU; above 65536 threads the "
           "first 65536 and 65536 random others"});
  d.family = "divergence/split";
  d.parameter_name = "split lane";
  d.parameter = split;
  d.max_size = (problem_size{1} << 32) - 1;
  array_kernel k;
  auto count = [](problem_size n) { return static_cast<std::size_t>(n); };
  k.inputs = {{count}};
  k.outputs = {count};
  k.function = branches_function(split);
  k.run = [split, launch](const device_arrays& in, const device_arrays& out, problem_size n,
                          std::uint64_t, cudaStream_t s) {
    launch_branches(launch(n), split, in[0], out[0], unsigned(n), s);
  };
  k.check = [split](const host_arrays& in, const host_arrays& out, problem_size, std::uint64_t) {
    const auto& x = in[0];
    return compare_sampled(
        out[0],
        [&](std::size_t t) {
          return branch_reference(x[t], takes_path_a(t, split), branch_iterations);
        },
        fully_checked, fully_checked, 1e-6, 1e-6, "if/else paths");
  };
  k.checked = [](problem_size n, std::uint64_t) {
    return checked_range{0, 0, std::min(fully_checked, static_cast<std::size_t>(n))};
  };
  return with_array_kernel(std::move(d), std::move(k));
}

kernel_descriptor boundary(problem_size n_default) {
  auto launch = [](problem_size n) { return launch_1d(n, 64); };
  auto d = describe(
      {.name = cat("divergence/boundary-", n_default),
       .description = cat("c[i] = a[i] + b[i] with `if (i < N)` in blocks of 64 at N = ", n_default,
                          ": ", n_default % 32 == 0 ? 0 : 1, " of ", (n_default + 31) / 32,
                          " warps have both active and inactive threads"),
       .claim_id = cat("boundary-divergence-", n_default),
       .seed_file = notes_seed,
       .size_unit = "elements",
       .default_size = n_default,
       .test_sizes = {1, 63, 65},
       .launch = launch,
       .fp32_flops = [](problem_size n) { return double(n); },
       .flops_formula = "N",
       .minimal_bytes = [](problem_size n) { return 12.0 * double(n); },
       .bytes_formula = "12 N",
       .check = "bitwise: c = a + b"});
  d.family = "divergence/boundary";
  d.parameter_name = std::string("elements");
  d.parameter = static_cast<double>(n_default);
  array_kernel k;
  auto count = [](problem_size n) { return static_cast<std::size_t>(n); };
  k.inputs = {{count}, {count}};
  k.outputs = {count};
  k.function = vadd_function();
  k.run = [launch](const device_arrays& in, const device_arrays& out, problem_size n, std::uint64_t,
                   cudaStream_t s) {
    launch_vadd(launch(n), in[0], in[1], out[0], static_cast<std::size_t>(n), s);
  };
  k.check = [](const host_arrays& in, const host_arrays& out, problem_size, std::uint64_t) {
    std::vector<float> want(in[0].size());
    add_reference(in[0], in[1], want);
    return compare_exact(out[0], want, "c = a + b");
  };
  return with_array_kernel(std::move(d), std::move(k));
}

const kernel_registration registration{[] {
  std::vector<kernel_descriptor> all;
  for (int split : {0, 24, 16, 8, 1})
    all.push_back(branches(split));
  for (problem_size n : {100, 1000, 10000})
    all.push_back(boundary(n));
  return all;
}};

} // namespace

} // namespace roofkit::kernels

// Registers the reductions: sum and dot product, each by one atomic per element, a shared-memory
// tree with one atomic per block, warp shuffles, and two passes.
#include "common/text.hpp"

#include "common/array_kernel.hpp"
#include "common/check.hpp"
#include "reduce/reduce_kernels.hpp"
#include "reduce/reduce_reference.hpp"
#include "roofkit/core.hpp"

namespace roofkit::kernels {

namespace {

constexpr const char* model_seed = "memory-model-global-to-shared.txt";
constexpr const char* notes_seed = "cuda-notes-warps-occupancy-roofline-gemm.txt";

struct method_info {
  reduce_method method;
  const char* slug;
  const char* how;
};

constexpr method_info methods[] = {
    {reduce_method::atomic, "atomic", "one atomicAdd per element on a single float"},
    {reduce_method::shared_tree, "shared-tree",
     "a shared-memory tree per block of 256 (one element per thread), one atomicAdd per block"},
    {reduce_method::warp_shuffle, "warp-shuffle",
     "__shfl_down_sync within each warp, then across the block's warps, one atomicAdd per "
     "block"},
    {reduce_method::two_pass, "two-pass",
     "pass 1: grid-stride partial sums of at most 1024 blocks of 256; pass 2: one block of "
     "1024 reduces them (no atomics, deterministic)"},
};

const char* claim_of(reduce_method m, bool dot) {
  switch (m) {
  case reduce_method::atomic:
  case reduce_method::shared_tree:
    return dot ? "dot-shared-vs-atomic" : "reduce-shared-vs-atomic";
  case reduce_method::warp_shuffle:
    return "warp-shuffle-faster";
  case reduce_method::two_pass:
    return "two-pass-no-contention";
  }
  return "";
}

kernel_descriptor reduction(const method_info& info, bool dot) {
  const bool two_pass = info.method == reduce_method::two_pass;
  auto launch = [two_pass](problem_size n) {
    return launch_1d(n, reduce_block, two_pass ? two_pass_max_blocks : 0);
  };
  auto d = describe(
      {.name = cat("reduce/", dot ? "dot-" : "", info.slug),
       .description = cat(dot ? "dot product x . y" : "sum", " of N floats: ", info.how),
       .claim_id = claim_of(info.method, dot),
       .seed_file =
           info.method == reduce_method::atomic || info.method == reduce_method::shared_tree
               ? model_seed
               : notes_seed,
       .size_unit = "elements",
       .default_size = problem_size{1} << 26,
       .test_sizes = {1, 255, 257, 100003},
       .launch = launch,
       .fp32_flops = [dot](problem_size n) { return (dot ? 2.0 : 1.0) * double(n); },
       .flops_formula = dot ? "2 N" : "N",
       .minimal_bytes = [dot](problem_size n) { return (dot ? 8.0 : 4.0) * double(n); },
       .bytes_formula = dot ? "8 N" : "4 N",
       .check =
           "exact: integer-valued inputs (+-1..+-8) make every float partial sum exact; compared "
           "with a double-precision sum"});
  d.family = dot ? "reduce/dot" : "reduce/sum";
  d.kernels_per_run = two_pass ? 2 : 1;
  d.max_size = problem_size{1} << 31;
  array_kernel k;
  auto count = [](problem_size n) { return static_cast<std::size_t>(n); };
  k.inputs = {{count, value_kind::small_integers}};
  if (dot)
    k.inputs.push_back({count, value_kind::small_integers});
  auto partial_count = [launch](problem_size n) { return std::size_t{launch(n).grid[0]}; };
  if (two_pass)
    k.outputs = {[](problem_size) { return std::size_t{1}; }, partial_count};
  else
    k.outputs = {[](problem_size) { return std::size_t{2}; }};
  k.function = reduce_function(info.method, dot);
  if (!two_pass)
    k.after_setup = [](const device_arrays& out, problem_size) {
      ROOFKIT_CUDA_CHECK(cudaMemset(out[0], 0, sizeof(float))); // slot 0 starts at zero
    };
  k.run = [method = info.method, dot, two_pass, launch](const device_arrays& in,
                                                        const device_arrays& out, problem_size n,
                                                        std::uint64_t run, cudaStream_t s) {
    launch_reduce(launch(n), method, in[0], dot ? in[1] : nullptr, out[0],
                  two_pass ? out[1] : nullptr, static_cast<std::size_t>(n),
                  static_cast<unsigned>(run & 1u), s);
  };
  auto slot = [two_pass](std::uint64_t runs) {
    return two_pass ? std::size_t{0} : static_cast<std::size_t>((runs - 1) & 1u);
  };
  k.check = [dot, slot](const host_arrays& in, const host_arrays& out, problem_size,
                        std::uint64_t runs) {
    const double want = dot ? dot_reference(in[0], in[1]) : sum_reference(in[0]);
    return compare_scalar(out[0][slot(runs)], want, 0.0, dot ? "x . y" : "sum of x");
  };
  k.checked = [slot](problem_size, std::uint64_t runs) { return checked_range{0, slot(runs), 1}; };
  return with_array_kernel(std::move(d), std::move(k));
}

const kernel_registration registration{[] {
  std::vector<kernel_descriptor> all;
  for (bool dot : {false, true})
    for (const auto& m : methods)
      all.push_back(reduction(m, dot));
  return all;
}};

} // namespace

} // namespace roofkit::kernels

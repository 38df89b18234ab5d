// Registers 3-point smoothing, naive and through shared memory with halos.
#include "common/array_kernel.hpp"
#include "common/check.hpp"
#include "stencil/stencil_kernels.hpp"
#include "stencil/stencil_reference.hpp"

namespace roofkit::kernels {

namespace {

constexpr const char* model_seed = "memory-model-global-to-shared.txt";

kernel_descriptor smooth(bool shared) {
  auto launch = [](problem_size n) { return launch_1d(n - 2, stencil_block); };
  auto d = describe(
      {.name = shared ? "stencil/shared" : "stencil/naive",
       .description =
           shared ? "out[i] = (in[i-1] + in[i] + in[i+1]) / 3 from a shared tile of 256 + 2 halo "
                    "elements: each input read once from global memory"
                  : "out[i] = (in[i-1] + in[i] + in[i+1]) / 3, three global loads per output",
       .claim_id = "smoothing-shared",
       .seed_file = model_seed,
       .size_unit = "elements",
       .default_size = problem_size{1} << 26,
       .test_sizes = {3, 4, 257, 258, 259, 100003},
       .launch = launch,
       .fp32_flops = [](problem_size n) { return 3.0 * double(n - 2); },
       .flops_formula = "3 (N - 2)",
       .minimal_bytes = [](problem_size n) { return 4.0 * double(n) + 4.0 * double(n - 2); },
       .bytes_formula = "4 N + 4 (N - 2)",
       .check = "|err| <= 1e-6 (same summation order); out[0] and out[N-1] must stay poisoned"});
  d.family = "stencil";
  d.min_size = 3;
  d.max_size = (problem_size{1} << 31) - 1;
  array_kernel k;
  auto count = [](problem_size n) { return static_cast<std::size_t>(n); };
  k.inputs = {{count}};
  k.outputs = {count};
  k.function = smooth_function(shared);
  k.run = [shared, launch](const device_arrays& in, const device_arrays& out, problem_size n,
                           std::uint64_t, cudaStream_t s) {
    launch_smooth(launch(n), shared, in[0], out[0], int(n), s);
  };
  k.check = [](const host_arrays& in, const host_arrays& out, problem_size n, std::uint64_t) {
    const auto len = static_cast<std::size_t>(n);
    std::vector<float> want(len);
    smooth_reference(in[0], want);
    const std::span<const float> got(out[0]);
    auto v =
        compare_close(got.subspan(1, len - 2), std::span<const float>(want).subspan(1, len - 2),
                      1e-6, 1e-6, "3-point smoothing");
    v = both(v, expect_poison(got.first(1), "out[0]"));
    return both(v, expect_poison(got.last(1), "out[N-1]"));
  };
  k.checked = [](problem_size n, std::uint64_t) {
    return checked_range{0, 1, static_cast<std::size_t>(n - 2)};
  };
  return with_array_kernel(std::move(d), std::move(k));
}

const kernel_registration registration{[] {
  return std::vector<kernel_descriptor>{smooth(false), smooth(true)};
}};

} // namespace

} // namespace roofkit::kernels

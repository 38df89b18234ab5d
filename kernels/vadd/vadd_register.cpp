// Registers vector addition, plain (one element per thread) and grid-stride.
#include "common/array_kernel.hpp"
#include "common/check.hpp"
#include "vadd/vadd_kernels.hpp"
#include "vadd/vadd_reference.hpp"

namespace roofkit::kernels {

namespace {

constexpr const char* model_seed = "memory-model-global-to-shared.txt";
constexpr const char* notes_seed = "cuda-notes-warps-occupancy-roofline-gemm.txt";
constexpr std::int64_t grid_stride_blocks = 2048;

kernel_descriptor vadd(bool grid_stride) {
  auto launch = [grid_stride](problem_size n) {
    return launch_1d(n, 256, grid_stride ? grid_stride_blocks : 0);
  };
  auto d = describe(
      {.name = grid_stride ? "vadd/grid-stride" : "vadd/plain",
       .description =
           grid_stride
               ? "c[i] = a[i] + b[i] with a grid-stride loop over at most 2048 blocks of 256"
               : "c[i] = a[i] + b[i], one element per thread, boundary check i < N",
       .claim_id = grid_stride ? "grid-stride-loop" : "vadd-bandwidth",
       .seed_file = grid_stride ? notes_seed : model_seed,
       .size_unit = "elements",
       .default_size = problem_size{1} << 26,
       .test_sizes = {1, 257, 100003},
       .launch = launch,
       .fp32_flops = [](problem_size n) { return double(n); },
       .flops_formula = "N",
       .minimal_bytes = [](problem_size n) { return 12.0 * double(n); },
       .bytes_formula = "12 N",
       .check = "bitwise: c = a + b"});
  d.family = "vadd";
  d.max_size = problem_size{1} << 32;
  array_kernel k;
  auto count = [](problem_size n) { return static_cast<std::size_t>(n); };
  k.inputs = {{count}, {count}};
  k.outputs = {count};
  k.function = grid_stride ? vadd_grid_stride_function() : vadd_function();
  k.run = [grid_stride, launch](const device_arrays& in, const device_arrays& out, problem_size n,
                                std::uint64_t, cudaStream_t s) {
    const auto len = static_cast<std::size_t>(n);
    if (grid_stride)
      launch_vadd_grid_stride(launch(n), in[0], in[1], out[0], len, s);
    else
      launch_vadd(launch(n), in[0], in[1], out[0], len, s);
  };
  k.check = [](const host_arrays& in, const host_arrays& out, problem_size, std::uint64_t) {
    std::vector<float> want(in[0].size());
    add_reference(in[0], in[1], want);
    return compare_exact(out[0], want, "c = a + b");
  };
  return with_array_kernel(std::move(d), std::move(k));
}

const kernel_registration registration{[] {
  return std::vector<kernel_descriptor>{vadd(false), vadd(true)};
}};

} // namespace

} // namespace roofkit::kernels

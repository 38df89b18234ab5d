// Registers the GEMM kernels: naive and shared-memory tiled (16 and 32), checked against Eigen.
#include "common/text.hpp"

#include "common/array_kernel.hpp"
#include "gemm/gemm_kernels.hpp"
#include "gemm/gemm_reference.hpp"

namespace roofkit::kernels {

namespace {

constexpr const char* notes_seed = "cuda-notes-warps-occupancy-roofline-gemm.txt";

kernel_descriptor gemm(int tile) {
  auto launch = [tile](problem_size n) {
    const unsigned t = tile == 0 ? 16u : static_cast<unsigned>(tile);
    return launch_2d(n, n, t, t, t, t);
  };
  auto d = describe(
      {.name = tile == 0 ? "gemm/naive" : cat("gemm/tiled-", tile),
       .description =
           tile == 0 ? "C = A B (N x N, fp32): each thread reads a row of A and a column of B from "
                       "global memory (blocks of 16 x 16)"
                     : cat("C = A B (N x N, fp32) through ", tile, " x ", tile,
                           " shared-memory tiles of A and B (blocks of ", tile, " x ", tile,
                           "); edge tiles zero-padded, any N"),
       .claim_id = tile == 0 ? "gemm-tiling-faster" : cat("gemm-tiling-traffic-", tile),
       .seed_file = notes_seed,
       .size_unit = "matrix order N (N x N floats)",
       .default_size = 2048,
       .test_sizes = {1, 15, 17, 33, 77, 100},
       .launch = launch,
       .fp32_flops = [](problem_size n) { return 2.0 * double(n) * double(n) * double(n); },
       .flops_formula = "2 N^3",
       .minimal_bytes = [](problem_size n) { return 12.0 * double(n) * double(n); },
       .bytes_formula = "12 N^2",
       .check =
           "Eigen A B in fp32, |err| <= 2e-6 N + 1e-5 per element (N > 2048: 64 random rows and "
           "Freivalds' test)"});
  d.family = "gemm";
  d.parameter_name = "tile";
  d.parameter = tile;
  d.max_size = 46340;
  array_kernel k;
  auto square = [](problem_size n) { return static_cast<std::size_t>(n * n); };
  k.inputs = {{square}, {square}};
  k.outputs = {square};
  k.function = gemm_function(tile);
  k.run = [tile, launch](const device_arrays& in, const device_arrays& out, problem_size n,
                         std::uint64_t, cudaStream_t s) {
    launch_gemm(launch(n), tile, in[0], in[1], out[0], int(n), s);
  };
  k.check = [](const host_arrays& in, const host_arrays& out, problem_size n, std::uint64_t) {
    return check_gemm(in[0], in[1], out[0], n);
  };
  return with_array_kernel(std::move(d), std::move(k));
}

const kernel_registration registration{[] {
  return std::vector<kernel_descriptor>{gemm(0), gemm(16), gemm(32)};
}};

} // namespace

} // namespace roofkit::kernels

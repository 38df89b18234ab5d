// Registers the transpose kernels: naive, shared tile, padded shared tile, and a copy of the
// same size as the bandwidth reference.
#include "common/array_kernel.hpp"
#include "common/check.hpp"
#include "transpose/transpose_kernels.hpp"
#include "transpose/transpose_reference.hpp"

namespace roofkit::kernels {

namespace {

constexpr const char* management_seed = "cuda-memory-management.txt";

kernel_descriptor transpose(transpose_variant v, const char* name, const char* description,
                            const char* claim) {
  auto launch = [](problem_size n) {
    return launch_2d(n, n, transpose_tile, transpose_tile, transpose_tile, transpose_block_rows);
  };
  auto d = describe(
      {.name = name,
       .description = description,
       .claim_id = claim,
       .seed_file = management_seed,
       .size_unit = "matrix order N (N x N floats)",
       .default_size = 8192,
       .test_sizes = {1, 31, 33, 100, 257},
       .launch = launch,
       .fp32_flops = [](problem_size) { return 0.0; },
       .flops_formula = "0",
       .minimal_bytes = [](problem_size n) { return 8.0 * double(n) * double(n); },
       .bytes_formula = "8 N^2",
       .check = v == transpose_variant::copy ? "bitwise: out = in" : "bitwise: out = in^T"});
  d.family = "transpose";
  d.max_size = 46340;
  array_kernel k;
  auto square = [](problem_size n) { return static_cast<std::size_t>(n * n); };
  k.inputs = {{square}};
  k.outputs = {square};
  k.function = transpose_function(v);
  k.run = [v, launch](const device_arrays& in, const device_arrays& out, problem_size n,
                      std::uint64_t,
                      cudaStream_t s) { launch_transpose(launch(n), v, in[0], out[0], int(n), s); };
  k.check = [v](const host_arrays& in, const host_arrays& out, problem_size n, std::uint64_t) {
    if (v == transpose_variant::copy)
      return compare_exact(out[0], in[0], "out = in");
    std::vector<float> want(in[0].size());
    transpose_reference(in[0], want, n);
    return compare_exact(out[0], want, "out = in^T");
  };
  return with_array_kernel(std::move(d), std::move(k));
}

const kernel_registration registration{[] {
  return std::vector<kernel_descriptor>{
      transpose(transpose_variant::copy, "transpose/copy",
                "out = in through the same 32 x 32 tiles and 32 x 8 blocks: the bandwidth a "
                "transpose can hope for",
                "transpose-shared"),
      transpose(transpose_variant::naive, "transpose/naive",
                "out[r][c] = in[c][r] straight from global memory: coalesced writes, reads "
                "strided by N floats",
                "transpose-shared"),
      transpose(transpose_variant::shared, "transpose/shared",
                "through a [32][32] shared tile: coalesced reads and writes, 32-way bank "
                "conflicts on the column reads of the tile",
                "transpose-shared"),
      transpose(transpose_variant::padded, "transpose/padded",
                "through a [32][33] shared tile: the padding column puts a tile column in 32 "
                "different banks",
                "transpose-padding"),
  };
}};

} // namespace

} // namespace roofkit::kernels

// Registers the global-memory kernels: coalesced vs strided, stride and offset sweeps, row- vs
// column-major access of a matrix.
#include "common/text.hpp"

#include "common/array_kernel.hpp"
#include "common/check.hpp"
#include "global/global_kernels.hpp"
#include "global/global_reference.hpp"

namespace roofkit::kernels {

namespace {

constexpr const char* coalescing_seed = "global-memory-coalescing.txt";
constexpr const char* model_seed = "memory-model-global-to-shared.txt";
const std::vector<problem_size> sizes_1d{1, 257, 100003};

std::size_t count(problem_size n) { return static_cast<std::size_t>(n); }
launch_config launch_256(problem_size n) { return launch_1d(n, 256); }
double one_flop_each(problem_size n) { return static_cast<double>(n); }
double eight_bytes_each(problem_size n) { return 8.0 * static_cast<double>(n); }

verification check_scale(const host_arrays& in, const host_arrays& out, std::int64_t stride) {
  std::vector<float> want(out[0].size());
  strided_scale_reference(in[0], want, stride);
  return compare_exact(out[0], want, cat("out[t] = 2 in[(t * ", stride, ") mod N]"));
}

kernel_descriptor coalesced() {
  auto d = describe({.name = "global/coalesced",
                     .description =
                         "out[t] = 2 in[t], one float per thread (the seed's coalesced_access; "
                         "262144 blocks of 256 at the default size)",
                     .claim_id = "coalesced-sectors-per-request",
                     .seed_file = coalescing_seed,
                     .size_unit = "elements",
                     .default_size = problem_size{1} << 26,
                     .test_sizes = sizes_1d,
                     .launch = launch_256,
                     .fp32_flops = one_flop_each,
                     .flops_formula = "N",
                     .minimal_bytes = eight_bytes_each,
                     .bytes_formula = "8 N",
                     .check = "bitwise: out = 2 in"});
  d.family = "global/coalescing";
  d.max_size = (problem_size{1} << 31) - 1;
  array_kernel k;
  k.inputs = {{count}};
  k.outputs = {count};
  k.function = coalesced_function();
  k.run = [](const device_arrays& in, const device_arrays& out, problem_size n, std::uint64_t,
             cudaStream_t s) { launch_coalesced(launch_256(n), in[0], out[0], int(n), s); };
  k.check = [](const host_arrays& in, const host_arrays& out, problem_size, std::uint64_t) {
    return check_scale(in, out, 1);
  };
  return with_array_kernel(std::move(d), std::move(k));
}

kernel_descriptor strided(int stride) {
  const char* claim = stride == 1    ? "stride-32-bandwidth"
                      : stride == 2  ? "stride-2-bandwidth"
                      : stride == 4  ? "stride-4-bandwidth"
                      : stride == 8  ? "stride-sweep"
                      : stride == 16 ? "stride-16-efficiency"
                                     : "stride-32-bandwidth";
  auto d = describe(
      {.name = cat("global/stride-", stride),
       .description =
           cat("out[t] = 2 in[(t * ", stride, ") mod N]: neighbouring threads read ", 4 * stride,
               " bytes apart", stride == 32 ? " (the seed's uncoalesced_access)" : ""),
       .claim_id = claim,
       .seed_file = stride == 32 ? coalescing_seed : model_seed,
       .size_unit = "elements",
       .default_size = problem_size{1} << 26,
       .test_sizes = sizes_1d,
       .launch = launch_256,
       .fp32_flops = one_flop_each,
       .flops_formula = "N",
       .minimal_bytes = eight_bytes_each,
       .bytes_formula = "8 N (4 B requested and 4 B written per thread)",
       .check = "bitwise: out = 2 in[gather]"});
  d.family = "global/stride";
  d.parameter_name = "stride";
  d.parameter = stride;
  d.max_size = (problem_size{1} << 32) - 1;
  array_kernel k;
  k.inputs = {{count}};
  k.outputs = {count};
  k.function = strided_function(stride);
  k.run = [stride](const device_arrays& in, const device_arrays& out, problem_size n, std::uint64_t,
                   cudaStream_t s) {
    launch_strided(launch_256(n), stride, in[0], out[0], unsigned(n), s);
  };
  k.check = [stride](const host_arrays& in, const host_arrays& out, problem_size, std::uint64_t) {
    return check_scale(in, out, stride);
  };
  return with_array_kernel(std::move(d), std::move(k));
}

kernel_descriptor offset(int off) {
  auto d = describe(
      {.name = cat("global/offset-", off),
       .description = cat("out[t + ", off, "] = 2 in[t + ", off, "]: every warp access starts ",
                          (4 * off) % 128, " bytes past a 128-byte boundary"),
       .claim_id = "misaligned-efficiency",
       .seed_file = model_seed,
       .size_unit = "elements",
       .default_size = problem_size{1} << 26,
       .test_sizes = sizes_1d,
       .launch = launch_256,
       .fp32_flops = one_flop_each,
       .flops_formula = "N",
       .minimal_bytes = eight_bytes_each,
       .bytes_formula = "8 N",
       .check = "bitwise: out = 2 in on [offset, offset + N); the rest stays poisoned"});
  d.family = "global/offset";
  d.parameter_name = "offset";
  d.parameter = off;
  d.max_size = (problem_size{1} << 32) - 64;
  array_kernel k;
  auto padded = [](problem_size n) { return static_cast<std::size_t>(n) + 32; };
  k.inputs = {{padded}};
  k.outputs = {padded};
  k.function = offset_function();
  k.run = [off](const device_arrays& in, const device_arrays& out, problem_size n, std::uint64_t,
                cudaStream_t s) {
    launch_offset(launch_256(n), off, in[0], out[0], unsigned(n), s);
  };
  k.check = [off](const host_arrays& in, const host_arrays& out, problem_size n, std::uint64_t) {
    const auto first = static_cast<std::size_t>(off), len = static_cast<std::size_t>(n);
    std::vector<float> want(len);
    scale_reference(std::span(in[0]).subspan(first, len), want, 2.0f);
    auto v = compare_exact(std::span(out[0]).subspan(first, len), want, "out = 2 in");
    v = both(v, expect_poison(std::span(out[0]).first(first), "out before the offset"));
    return both(v, expect_poison(std::span(out[0]).subspan(first + len), "out after the end"));
  };
  k.checked = [off](problem_size n, std::uint64_t) {
    return checked_range{0, static_cast<std::size_t>(off), static_cast<std::size_t>(n)};
  };
  return with_array_kernel(std::move(d), std::move(k));
}

kernel_descriptor matrix(bool column_major) {
  auto launch = [](problem_size m) { return launch_2d(m, m, 32, 32, 32, 32); };
  auto d = describe(
      {.name = column_major ? "global/matrix-column-major" : "global/matrix-row-major",
       .description = column_major
                          ? "out = 2 in + 1 over an N x N row-major matrix, thread (row, col) at "
                            "col * N + row: a warp strides N floats (the seed's "
                            "uncoalesced_matrix_access, out of place)"
                          : "out = 2 in + 1 over an N x N row-major matrix, thread (row, col) at "
                            "row * N + col: a warp reads one row segment (the seed's "
                            "coalesced_matrix_access, out of place)",
       .claim_id = "matrix-sectors-per-request",
       .seed_file = coalescing_seed,
       .size_unit = "matrix order N (N x N floats)",
       .default_size = 16384,
       .test_sizes = {1, 33, 1000},
       .launch = launch,
       .fp32_flops = [](problem_size m) { return 2.0 * double(m) * double(m); },
       .flops_formula = "2 N^2",
       .minimal_bytes = [](problem_size m) { return 8.0 * double(m) * double(m); },
       .bytes_formula = "8 N^2",
       .check = "bitwise: out = 2 in + 1"});
  d.family = "global/matrix";
  d.max_size = 46340;
  array_kernel k;
  auto square = [](problem_size m) { return static_cast<std::size_t>(m * m); };
  k.inputs = {{square}};
  k.outputs = {square};
  k.function = matrix_function(column_major);
  k.run = [column_major, launch](const device_arrays& in, const device_arrays& out, problem_size m,
                                 std::uint64_t, cudaStream_t s) {
    launch_matrix(launch(m), column_major, in[0], out[0], int(m), int(m), s);
  };
  k.check = [](const host_arrays& in, const host_arrays& out, problem_size, std::uint64_t) {
    std::vector<float> want(out[0].size());
    affine_reference(in[0], want, 2.0f, 1.0f);
    return compare_exact(out[0], want, "out = 2 in + 1");
  };
  return with_array_kernel(std::move(d), std::move(k));
}

const kernel_registration registration{[] {
  std::vector<kernel_descriptor> all;
  all.push_back(coalesced());
  for (int stride : {1, 2, 4, 8, 16, 32})
    all.push_back(strided(stride));
  for (int off : {0, 1, 2, 4, 8, 16, 32})
    all.push_back(offset(off));
  all.push_back(matrix(false));
  all.push_back(matrix(true));
  return all;
}};

} // namespace

} // namespace roofkit::kernels

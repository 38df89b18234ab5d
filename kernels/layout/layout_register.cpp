// Registers the layout kernels: the same work on an array of structures and on a structure of
// arrays, reading one field or all three.
#include "common/text.hpp"

#include "common/array_kernel.hpp"
#include "common/check.hpp"
#include "layout/layout_kernels.hpp"
#include "layout/layout_reference.hpp"

namespace roofkit::kernels {

namespace {

constexpr const char* notes_seed = "cuda-notes-warps-occupancy-roofline-gemm.txt";

kernel_descriptor layout(bool aos, bool all_fields) {
  auto launch = [](problem_size n) { return launch_1d(n, 256); };
  const std::string what = all_fields ? "out[i] = 0.299 r + 0.587 g + 0.114 b" : "out[i] = 2 r";
  auto d = describe(
      {.name = cat("layout/", aos ? "aos" : "soa", "-", all_fields ? "all-fields" : "one-field"),
       .description =
           cat(what, " for N pixels stored as ",
               aos ? "an array of {r, g, b} structs (12 bytes)" : "three arrays r[N], g[N], b[N]"),
       .claim_id = "soa-coalesces",
       .seed_file = notes_seed,
       .size_unit = "elements (pixels)",
       .default_size = problem_size{1} << 25,
       .test_sizes = {1, 257, 100003},
       .launch = launch,
       .fp32_flops = [all_fields](problem_size n) { return (all_fields ? 5.0 : 1.0) * double(n); },
       .flops_formula = all_fields ? "5 N" : "N",
       .minimal_bytes =
           [all_fields](problem_size n) { return (all_fields ? 16.0 : 8.0) * double(n); },
       .bytes_formula = all_fields ? "16 N" : "8 N",
       .check = all_fields ? "bitwise: the luminance, products and sums rounded in the same order"
                           : "bitwise: out = 2 r"});
  d.family = all_fields ? "layout/all-fields" : "layout/one-field";
  d.max_size = problem_size{1} << 31;
  array_kernel k;
  auto count = [](problem_size n) { return static_cast<std::size_t>(n); };
  auto count3 = [](problem_size n) { return 3 * static_cast<std::size_t>(n); };
  if (aos)
    k.inputs = {{count3}};
  else
    k.inputs = {{count}, {count}, {count}};
  k.outputs = {count};
  k.function = aos ? aos_function(all_fields) : soa_function(all_fields);
  k.run = [aos, all_fields, launch](const device_arrays& in, const device_arrays& out,
                                    problem_size n, std::uint64_t, cudaStream_t s) {
    const auto len = static_cast<std::size_t>(n);
    if (aos)
      launch_aos(launch(n), all_fields, in[0], out[0], len, s);
    else
      launch_soa(launch(n), all_fields, in[0], in[1], in[2], out[0], len, s);
  };
  k.check = [aos, all_fields, what](const host_arrays& in, const host_arrays& out, problem_size n,
                                    std::uint64_t) {
    const auto len = static_cast<std::size_t>(n);
    std::vector<float> want(len);
    for (std::size_t i = 0; i < len; ++i) {
      const float r = aos ? in[0][3 * i] : in[0][i];
      const float g = aos ? in[0][3 * i + 1] : in[1][i];
      const float b = aos ? in[0][3 * i + 2] : in[2][i];
      want[i] = all_fields ? luma_reference(r, g, b) : 2.0f * r;
    }
    return compare_exact(out[0], want, what);
  };
  return with_array_kernel(std::move(d), std::move(k));
}

const kernel_registration registration{[] {
  return std::vector<kernel_descriptor>{layout(true, false), layout(false, false),
                                        layout(true, true), layout(false, true)};
}};

} // namespace

} // namespace roofkit::kernels

// Registers the read-only path kernels: plain loads, const __restrict__ pointers, __ldg.
#include "common/array_kernel.hpp"
#include "common/check.hpp"
#include "readonly/readonly_kernels.hpp"
#include "readonly/readonly_reference.hpp"

namespace roofkit::kernels {

namespace {

constexpr const char* management_seed = "cuda-memory-management.txt";

kernel_descriptor readonly(readonly_variant v, const char* name, const char* how,
                           const char* claim) {
  auto launch = [](problem_size n) { return launch_1d(n, 256); };
  auto d = describe(
      {.name = name,
       .description =
           std::string("out[i] = sum of w[k] in[i + k] over 8 taps (a warp reads each w[k] at one "
                       "address) with ") +
           how,
       .claim_id = claim,
       .seed_file = management_seed,
       .size_unit = "elements",
       .default_size = problem_size{1} << 26,
       .test_sizes = {1, 257, 100003},
       .launch = launch,
       .fp32_flops = [](problem_size n) { return 2.0 * readonly_taps * double(n); },
       .flops_formula = "16 N",
       .minimal_bytes =
           [](problem_size n) {
             return 8.0 * double(n) + 4.0 * (readonly_taps - 1 + readonly_taps);
           },
       .bytes_formula = "8 N + 60",
       .check = "bitwise against the same float operations on the CPU"});
  d.family = "readonly";
  d.max_size = problem_size{1} << 32;
  array_kernel k;
  k.inputs = {{[](problem_size n) { return static_cast<std::size_t>(n) + readonly_taps - 1; }},
              {[](problem_size) { return std::size_t{readonly_taps}; }}};
  k.outputs = {[](problem_size n) { return static_cast<std::size_t>(n); }};
  k.function = readonly_function(v);
  k.run = [v, launch](const device_arrays& in, const device_arrays& out, problem_size n,
                      std::uint64_t, cudaStream_t s) {
    launch_readonly(launch(n), v, in[0], in[1], out[0], static_cast<std::size_t>(n), s);
  };
  k.check = [](const host_arrays& in, const host_arrays& out, problem_size, std::uint64_t) {
    std::vector<float> want(out[0].size());
    weighted_window_reference(in[0], in[1], want);
    return compare_exact(out[0], want, "8-tap weighted window");
  };
  return with_array_kernel(std::move(d), std::move(k));
}

const kernel_registration registration{[] {
  return std::vector<kernel_descriptor>{
      readonly(readonly_variant::plain, "readonly/plain", "plain const float* loads",
               "readonly-ldg"),
      readonly(readonly_variant::restrict_pointers, "readonly/restrict",
               "const __restrict__ pointers (the compiler may use the read-only path)",
               "readonly-restrict"),
      readonly(readonly_variant::ldg, "readonly/ldg", "explicit __ldg() loads", "readonly-ldg"),
  };
}};

} // namespace

} // namespace roofkit::kernels

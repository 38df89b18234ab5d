// Registers the vectorised-access kernels: scalar, int2 and int4 grid-stride copies, float3 vs
// float4 elements.
#include "common/text.hpp"

#include "common/array_kernel.hpp"
#include "common/check.hpp"
#include "global/global_reference.hpp"
#include "vector/vector_kernels.hpp"

namespace roofkit::kernels {

namespace {

constexpr const char* vectorized_seed = "vectorized-memory-access.txt";
constexpr const char* notes_seed = "cuda-notes-warps-occupancy-roofline-gemm.txt";
constexpr std::int64_t max_blocks = 8192; // the seed's MAX_BLOCKS

kernel_descriptor copy(int width) {
  const std::string type = width == 1 ? "int" : width == 2 ? "int2" : "int4";
  auto launch = [width](problem_size n) { return launch_1d(n / width, 256, max_blocks); };
  auto d = describe(
      {.name = width == 1 ? "vector/copy-scalar" : cat("vector/copy-", type),
       .description =
           cat("grid-stride copy of N ints with ", type, " loads and stores (LDG.E",
               width == 1   ? ""
               : width == 2 ? ".64"
                            : ".128",
               "), at most ", max_blocks, " blocks of 256; any N (the tail is copied separately)"),
       .claim_id = width == 1   ? "vector-int4-faster"
                   : width == 2 ? "vector-int2-instructions"
                                : "vector-int4-instructions",
       .seed_file = vectorized_seed,
       .size_unit = "elements (ints)",
       .default_size = problem_size{1} << 26,
       .test_sizes = {1, 2, 3, 5, 7, 1023, 1025, 100003},
       .launch = launch,
       .fp32_flops = [](problem_size) { return 0.0; },
       .flops_formula = "0",
       .minimal_bytes = [](problem_size n) { return 8.0 * double(n); },
       .bytes_formula = "8 N",
       .check = "bitwise: out = in"});
  d.family = "vector/copy";
  d.parameter_name = "bytes per load";
  d.parameter = 4 * width;
  d.max_size = problem_size{1} << 32;
  array_kernel k;
  auto count = [](problem_size n) { return static_cast<std::size_t>(n); };
  k.inputs = {{count}};
  k.outputs = {count};
  k.function = copy_function(width);
  k.run = [width, launch](const device_arrays& in, const device_arrays& out, problem_size n,
                          std::uint64_t, cudaStream_t s) {
    launch_copy(launch(n), width, reinterpret_cast<const int*>(in[0]),
                reinterpret_cast<int*>(out[0]), static_cast<std::size_t>(n), s);
  };
  k.check = [](const host_arrays& in, const host_arrays& out, problem_size, std::uint64_t) {
    return compare_exact(out[0], in[0], "out = in");
  };
  return with_array_kernel(std::move(d), std::move(k));
}

kernel_descriptor scale(int components) {
  auto launch = [](problem_size n) { return launch_1d(n, 256); };
  auto d = describe(
      {.name = cat("vector/float", components),
       .description = cat("out[i] = 2 in[i] over N float", components, " elements (",
                          4 * components, " bytes each",
                          components == 3 ? ": not a power of two, loaded as three 4-byte loads"
                                          : ": one 16-byte load",
                          ")"),
       .claim_id = "float3-slower",
       .seed_file = notes_seed,
       .size_unit = "elements (vectors)",
       .default_size = problem_size{1} << 25,
       .test_sizes = {1, 257, 100003},
       .launch = launch,
       .fp32_flops = [components](problem_size n) { return double(components) * double(n); },
       .flops_formula = cat(components, " N"),
       .minimal_bytes = [components](problem_size n) { return 8.0 * components * double(n); },
       .bytes_formula = cat(8 * components, " N"),
       .check = "bitwise: out = 2 in"});
  d.family = "vector/float3-float4";
  d.parameter_name = "bytes per element";
  d.parameter = 4 * components;
  d.max_size = problem_size{1} << 31;
  array_kernel k;
  auto count = [components](problem_size n) { return static_cast<std::size_t>(n) * components; };
  k.inputs = {{count}};
  k.outputs = {count};
  k.function = components == 3 ? scale_float3_function() : scale_float4_function();
  k.run = [components, launch](const device_arrays& in, const device_arrays& out, problem_size n,
                               std::uint64_t, cudaStream_t s) {
    if (components == 3)
      launch_scale_float3(launch(n), in[0], out[0], static_cast<std::size_t>(n), s);
    else
      launch_scale_float4(launch(n), in[0], out[0], static_cast<std::size_t>(n), s);
  };
  k.check = [](const host_arrays& in, const host_arrays& out, problem_size, std::uint64_t) {
    std::vector<float> want(in[0].size());
    scale_reference(in[0], want, 2.0f);
    return compare_exact(out[0], want, "out = 2 in");
  };
  return with_array_kernel(std::move(d), std::move(k));
}

const kernel_registration registration{[] {
  return std::vector<kernel_descriptor>{copy(1), copy(2), copy(4), scale(3), scale(4)};
}};

} // namespace

} // namespace roofkit::kernels

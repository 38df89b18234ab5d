#pragma once
// A generic kernel instance for kernels that read float arrays and write float arrays: the topic
// files give the arrays, the launcher and the CPU check; this class does the rest (allocation,
// fresh random fills, poison, copies back, corruption, attributes).
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "common/buffers.hpp"
#include "common/random.hpp"
#include "roofkit/registry.hpp"

namespace roofkit::kernels {

/// Device pointers of a kernel's arrays, in declaration order.
using device_arrays = std::vector<float*>;
/// Host copies of a kernel's arrays, in declaration order.
using host_arrays = std::vector<std::vector<float>>;

/// An input array: its length in floats for a size, and its random values.
struct input_array {
  std::function<std::size_t(problem_size)> count;
  value_kind values = value_kind::uniform;
};

/// The output value corrupt_output() changes: output `output`, an element in [first, first+count).
struct checked_range {
  std::size_t output = 0;
  std::size_t first = 0;
  std::size_t count = 0;
};

/// Everything that differs between array kernels.
struct array_kernel {
  std::vector<input_array> inputs;
  std::vector<std::function<std::size_t(problem_size)>> outputs; ///< lengths in floats
  /// Enqueues one run; `run_index` counts runs since setup, from 0.
  std::function<void(const device_arrays& in, const device_arrays& out, problem_size n,
                     std::uint64_t run_index, cudaStream_t stream)>
      run;
  /// Compares the outputs of the last of `runs` runs with the CPU reference.
  std::function<verification(const host_arrays& in, const host_arrays& out, problem_size n,
                             std::uint64_t runs)>
      check;
  /// The values check() looks at (default: all of output 0).
  std::function<checked_range(problem_size n, std::uint64_t runs)> checked;
  /// Runs once at the end of setup(), after the fills (e.g. zeroes an accumulator).
  std::function<void(const device_arrays& out, problem_size n)> after_setup;
  /// The main kernel's function pointer.
  const void* function = nullptr;
  /// The main kernel's launch (the descriptor's).
  std::function<launch_config(problem_size)> launch;
};

/// A kernel_instance running `spec`.
std::unique_ptr<kernel_instance> make_array_instance(const array_kernel& spec);

/// Completes `d` for `spec`: sets d.make, d.device_bytes and spec.launch from d.launch.
kernel_descriptor with_array_kernel(kernel_descriptor d, array_kernel spec);

/// The facts most kernels describe themselves by (fp32 FLOPs and DRAM bytes as formulas), named
/// so that every registration spells out which is which.
struct kernel_facts {
  std::string name;        ///< "<topic>/<kernel>"; the topic is the part before '/'
  std::string description; ///< what the kernel does, one line
  std::string claim_id;    ///< the seed claim it illustrates
  std::string seed_file;   ///< the seed article the claim comes from
  std::string size_unit;   ///< what the problem size counts ("elements", "matrix order N", ...)
  problem_size default_size = 0;
  std::vector<problem_size> test_sizes; ///< sizes the CPU-reference tests run
  std::function<launch_config(problem_size)> launch;
  std::function<double(problem_size)> fp32_flops; ///< algorithmic FP32 FLOPs
  std::string flops_formula;
  std::function<double(problem_size)> minimal_bytes; ///< the least DRAM traffic
  std::string bytes_formula;
  std::string check; ///< how the output is checked against the CPU reference
};

/// A descriptor with the fields of `f`.
kernel_descriptor describe(kernel_facts f);

/// A 1-D launch: ceil(n / block) blocks (at most max_blocks when max_blocks > 0).
launch_config launch_1d(std::int64_t n, unsigned block, std::int64_t max_blocks = 0);

/// A 2-D launch of tiles: ceil(nx / tile_x) x ceil(ny / tile_y) blocks of block_x x block_y.
launch_config launch_2d(std::int64_t nx, std::int64_t ny, unsigned tile_x, unsigned tile_y,
                        unsigned block_x, unsigned block_y);

} // namespace roofkit::kernels

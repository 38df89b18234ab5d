#pragma once
// roofkit/registry.hpp: the kernel registry and the claim mechanism.

#include <cstdint>
#include <cuda_runtime_api.h>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofkit/printer.hpp"
#include "roofkit/run.hpp"

// Kernel suites as data: every kernel registers a descriptor (name, topic, claim, sizes, launch,
// FLOPs and minimal bytes as formulas of the size, and a factory for a runnable instance that
// verifies itself against a CPU reference). A suite also registers its claims and the display
// order of its topics. A listing prints the registry; the bench (bench.hpp) drives the instances.
//
// This header is host C++ (no fmt, no JSON, no CLI11) so that kernel files may include it.
namespace roofkit {

/// A kernel's problem size: one integer whose meaning the descriptor's `size_unit` gives
/// (elements, the order N of an N x N matrix, bytes, threads).
using problem_size = std::int64_t;

/// The outcome of a kernel's check against its CPU reference.
struct verification {
  bool ok = false;
  double max_error = 0;     ///< largest absolute difference found (0 for exact comparisons)
  double tolerance = 0;     ///< the absolute tolerance at the element with the largest error
  std::int64_t checked = 0; ///< number of values compared
  std::string message;      ///< what was compared; on failure, the first bad element
};

/// What one run() measures, and so how the harness must time and profile it.
enum class measurement {
  kernel,         ///< device kernels only: time with events, profile with counters (any replay)
  managed_memory, ///< a kernel on managed memory whose pages move: call reset() before every
                  ///< run (outside the timed region) and before every replay pass of its
                  ///< counters, so that each pass finds the pages where a timed run does
  transfer,       ///< a host<->device copy, not a kernel: time with events, no counters; its
                  ///< minimal bytes are bytes over the host link, not DRAM bytes
};

/// Stable names: "kernel", "managed_memory", "transfer".
std::string to_string(measurement m);

/// A kernel set up at one size: device buffers, fresh random inputs, poisoned outputs.
/// Lifecycle: setup(size) once, then any number of [reset(stream)] run(stream), then verify()
/// (after at least one run), then teardown() (also done by the destructor).
class kernel_instance {
public:
  virtual ~kernel_instance() = default;
  /// Allocates what the kernel needs for `size`, fills the inputs with fresh random data (a new
  /// seed every call; never all zeros) and poisons the outputs (NaN bytes). Synchronous.
  virtual void setup(problem_size size) = 0;
  /// Restores the state run() expects; bench calls it before every run when the descriptor's
  /// `reset_before_each_run` is set (unified memory), else never. May synchronise.
  virtual void reset(cudaStream_t stream) { (void)stream; }
  /// Enqueues one run on `stream`: one kernel launch (descriptor.kernels_per_run launches for
  /// multi-kernel algorithms, one copy for transfers). Launch errors throw roofkit::error.
  virtual void run(cudaStream_t stream) = 0;
  /// Waits for the device and compares the outputs of the last run with a CPU reference
  /// computed from the same inputs. Never throws for a wrong result; throws for CUDA errors.
  virtual verification verify() = 0;
  /// Deliberately corrupts one output value that verify() checks (tests of the checker).
  virtual void corrupt_output() = 0;
  /// Frees every allocation. Idempotent.
  virtual void teardown() = 0;
  /// The launch of the main kernel at the current size, with registers per thread and static
  /// shared memory from cudaFuncGetAttributes (grid and block zero for transfers).
  virtual launch_config launch() const = 0;
  /// The main kernel's function (for cudaFuncGetAttributes / occupancy queries); nullptr for
  /// transfers.
  virtual const void* kernel_function() const = 0;
  /// Facts found at run time worth showing, e.g. {"registers", "33"}, {"local_bytes", "0"},
  /// {"blocks_per_sm", "3"}, {"occupancy", "0.75"}.
  virtual std::map<std::string, std::string> facts() const { return {}; }
};

/// A launch that a cliff sweep imposes on a kernel (0: the kernel's own choice).
struct launch_shape {
  std::uint32_t block = 0;              ///< threads per block (1-D launches)
  std::uint32_t dynamic_smem_bytes = 0; ///< dynamic shared memory per block
  int register_cap = 0;                 ///< one of kernel_descriptor::register_caps
};

/// How a claim's figure is computed from measurements (bench implements each).
enum class claim_metric {
  speedup,               ///< time(baseline) / time(subject)
  bandwidth_ratio,       ///< effective bandwidth (minimal bytes / time) of subject over baseline
  bandwidth_gbs,         ///< effective bandwidth of the subject in GB/s (1e9 bytes/s)
  fraction_of_dram_roof, ///< subject's effective bandwidth / the DRAM roof of the run
  counter_ratio,         ///< counters[0] of the subject / counters[0] of the baseline
  counter_quotient,      ///< counters[0] / counters[1] of the subject (baseline shown beside)
  occupancy,             ///< theoretical occupancy of the subject, 0..1 (baseline shown beside)
};

/// Stable names: "speedup", "bandwidth_ratio", "bandwidth_gbs", "fraction_of_dram_roof",
/// "counter_ratio", "counter_quotient", "occupancy".
std::string to_string(claim_metric m);

/// A claim about registered kernels (e.g. one that a seed article makes), with the figure its
/// source gives and how to measure it. Suites register claims with claim_registration.
struct seed_claim {
  std::string id;          ///< stable key, e.g. "copy-bandwidth"
  std::string text;        ///< the claim in English, e.g. "the copy reaches 80% of the DRAM roof"
  std::string seed_file;   ///< the source of the claim, e.g. an article's file name
  std::string seed_figure; ///< the figure as the source gives it, with its GPU ("0.9x, RTX 4090")
  std::string subject;     ///< kernel the figure is about
  std::string baseline;    ///< kernel it is compared with ("" when absolute)
  claim_metric metric = claim_metric::speedup;
  std::vector<std::string> counters; ///< CUPTI/Nsight metric names for counter_* metrics
  std::optional<double> seed_value;  ///< the seed's figure in the metric's unit; none when the
                                     ///< seed states the claim without a number
  bool holds_if_at_least = true;     ///< the claim holds when our value >= threshold (else <=)
  double threshold = 0;              ///< the value that separates "holds" from "does not hold"
};

/// One registered kernel: everything a listing prints and everything the bench needs.
struct kernel_descriptor {
  std::string name;           ///< "<topic>/<variant>", e.g. "memory/stride-4"
  std::string topic;          ///< the suite's group of kernels, e.g. "memory"
  std::string family;         ///< kernels shown as one series (a sweep), e.g. "memory/stride"
  std::string parameter_name; ///< the swept parameter ("stride", "ways", "bytes"); "" if none
  double parameter = 0;       ///< its value for this kernel
  std::string description;    ///< one line: what the kernel does
  std::string claim_id;       ///< the seed_claim it illustrates (seed_claims()), "" if none
  std::string claim;          ///< the claim's text, for display (default: the claim's text)
  std::string seed_file;      ///< the source (e.g. an article) the kernel comes from

  std::string size_unit;         ///< "elements", "matrix order N (N x N)", "bytes", "threads"
  problem_size default_size = 0; ///< bandwidth kernels: past the L2 (50 MB on an H100)
  std::vector<problem_size> test_sizes; ///< small sizes for tests (odd ones: tails, edges)
  problem_size min_size = 1;
  problem_size max_size = std::int64_t{1} << 31;

  measurement kind = measurement::kernel;
  bool reset_before_each_run = false; ///< call instance.reset() before every run
  bool counter_profiled = true;       ///< collect counters (false: analytical mode only)
  int kernels_per_run = 1;            ///< kernel launches per run() (two-pass: 2)

  std::function<launch_config(problem_size)> launch; ///< grid/block/dynamic smem of the main kernel
  std::function<std::map<precision, double>(problem_size)> flops; ///< algorithmic FLOPs
  std::function<double(problem_size)> minimal_bytes; ///< fewest DRAM (transfers: link) bytes
  std::function<double(problem_size)> device_bytes;  ///< device memory the instance allocates
  std::string flops_formula;                         ///< the formula as text, e.g. "2 N^3"
  std::string bytes_formula;                         ///< e.g. "12 N^2"
  std::string check; ///< how verify() checks, e.g. "Eigen A*B, |err| <= 2e-6 N + 1e-5"
  std::function<std::unique_ptr<kernel_instance>()> make; ///< a new instance (not yet set up)
  /// A new instance launched with `shape` (cliff sweeps over block size, dynamic shared memory
  /// and register caps); empty when the kernel's launch is fixed.
  std::function<std::unique_ptr<kernel_instance>(const launch_shape&)> make_shaped;
  /// The register caps the kernel is compiled at, one variant each (launch_shape::register_cap
  /// selects one); empty when there are none.
  std::vector<int> register_caps;

  /// Throws usage_error naming the kernel, the size and the valid range when `size` is invalid.
  void validate_size(problem_size size) const;
  /// Sum of flops(size) over precisions.
  double total_flops(problem_size size) const;
};

/// Every registered kernel, in display order: the registered topic order (topics not in it last,
/// alphabetically), then registration order within a file.
const std::vector<kernel_descriptor>& kernel_registry();

/// The kernel named `name`, or nullptr.
const kernel_descriptor* find_kernel(std::string_view name);

/// Kernels whose name matches `regex` (ECMAScript, searched anywhere in the name; "" = all).
/// Throws usage_error for an invalid regex or when nothing matches.
std::vector<const kernel_descriptor*> select_kernels(const std::string& regex);

/// Every registered claim, in registration order (the claims of one claim_registration in the
/// order it gives them).
const std::vector<seed_claim>& seed_claims();

/// The claim with this id, or nullptr.
const seed_claim* find_claim(std::string_view id);

/// Problems with the registry (duplicate names, unknown claims, missing formulas, names that do
/// not start with their topic, claims naming unknown kernels); empty when consistent.
std::vector<std::string> registry_problems();

/// The kernels as a table (id "kernels"): one row per kernel with its default size and the
/// FLOPs, bytes and intensity formulas evaluated there.
table kernel_list_table(const std::vector<const kernel_descriptor*>& kernels);

/// Registers descriptors at static-initialisation time: define one at namespace scope in a kernel
/// file, `const roofkit::kernel_registration reg{[] { return std::vector<kernel_descriptor>{...};
/// }};`
struct kernel_registration {
  /// Registers the descriptors `make` returns (called once, when the registry is first used).
  explicit kernel_registration(std::function<std::vector<kernel_descriptor>()> make);
};

/// Registers claims at static-initialisation time, like kernel_registration: define one at
/// namespace scope, `const roofkit::claim_registration claims{[] { return std::vector<seed_claim>{
/// ...}; }};`. A kernel's claim_id may name any registered claim.
struct claim_registration {
  /// Registers the claims `make` returns (called once, when the claims are first used).
  explicit claim_registration(std::function<std::vector<seed_claim>()> make);
};

/// Registers the display order of a suite's topics at static-initialisation time; registrations
/// append to one order. Topics not registered are listed after these, alphabetically.
struct topic_order_registration {
  /// Appends `topics` to the display order.
  explicit topic_order_registration(std::vector<std::string> topics);
};

} // namespace roofkit

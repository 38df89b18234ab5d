#pragma once
// roofkit/occupancy.hpp: theoretical occupancy, limiters, sweeps, suggestions and reports (no
// GPU, no chart: the sweep charts are in roofkit/plot.hpp, the cliffs in roofkit/cliff.hpp).

#include <climits>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofkit/arch.hpp"
#include "roofkit/printer.hpp"

// ---- occupancy ----
// Theoretical occupancy of a CUDA launch, exact for every architecture in data/arch (the same
// arithmetic as the CUDA runtime's occupancy calculator, checked against cuda_occupancy.h).
namespace roofkit {

/// A block limit that does not apply (no registers, no shared memory, no barrier limit).
inline constexpr int unlimited_blocks = INT_MAX;

/// Carveout value meaning "no preference": the runtime then gives the largest shared memory.
inline constexpr int carveout_default = -1;

/// One launch: what a kernel uses per block and how it is launched.
struct launch_params {
  int threads_per_block = 256;
  int registers_per_thread = 32;   ///< 0 = unknown (no register limit)
  std::int64_t static_smem = 0;    ///< bytes (__shared__ arrays)
  std::int64_t dynamic_smem = 0;   ///< bytes (third launch parameter)
  int carveout = carveout_default; ///< cudaFuncAttributePreferredSharedMemoryCarveout: 0..100 %, -1
  int barriers = 1;                ///< block barriers used (bar.sync ids); the runtime assumes 1
};

/// The resources that can limit the number of resident blocks (bit values as cuda_occupancy.h).
enum class limiter : unsigned {
  warps = 0x01,
  registers = 0x02,
  shared_memory = 0x04,
  blocks = 0x08,
  barriers = 0x10,
};

/// Every limiter, in report order.
inline constexpr limiter all_limiters[] = {
    limiter::warps, limiter::registers, limiter::shared_memory, limiter::blocks, limiter::barriers};

/// "warps", "registers", "shared_memory", "blocks", "barriers"
std::string_view to_string(limiter l);
/// "warps, registers" for a bit mask ("none" when empty).
std::string limiter_names(unsigned mask);

/// The result of the occupancy calculation for one launch on one architecture.
struct occupancy_result {
  int active_blocks = 0; ///< resident blocks per SM
  int active_warps = 0;  ///< resident warps per SM
  double occupancy = 0;  ///< active warps / max warps per SM, 0..1
  int warps_per_block = 0;
  int limit_warps = 0;         ///< block limit from the warp slots
  int limit_blocks = 0;        ///< block limit from the block slots
  int limit_registers = 0;     ///< unlimited_blocks when registers_per_thread == 0
  int limit_shared_memory = 0; ///< unlimited_blocks when nothing is allocated
  int limit_barriers = 0;      ///< unlimited_blocks before CC 9.0 or with 0 barriers
  unsigned limiters = 0;       ///< every limiter whose limit equals active_blocks (ties included)
  int allocated_registers_per_block = 0;
  std::int64_t allocated_smem_per_block = 0; ///< includes the reserved bytes, rounded up
  std::int64_t smem_per_block_limit = 0;     ///< the per-block cap that applied (incl. reserved)
  std::int64_t smem_per_sm = 0;              ///< shared memory per SM after the carveout
  bool optin_assumed = false; ///< static + dynamic > 48 KB: the opt-in attribute is assumed set
  std::string reason;         ///< why no block fits, in words (empty when active_blocks > 0)

  /// The limit of one resource.
  int limit(limiter l) const;
  /// True when `l` is among the limiters.
  bool limited_by(limiter l) const { return (limiters & static_cast<unsigned>(l)) != 0; }
};

/// The occupancy calculation (cudaOccMaxActiveBlocksPerMultiprocessor's arithmetic, with the
/// limiter bits recomputed against the final value). Never throws: out-of-range inputs give 0
/// blocks and a reason. With `explain` false the reason is left empty (sweeps and searches that
/// evaluate many launches skip formatting it).
occupancy_result compute_occupancy(const arch_spec& arch, const launch_params& launch,
                                   bool explain = true);

/// Throws usage_error, naming the value and the valid range, when a launch is outside what the
/// architecture accepts (threads 1..max, registers 0..255, shared memory up to the opt-in
/// maximum, carveout -1..100, barriers 0..16).
void validate_launch(const arch_spec& arch, const launch_params& launch);

/// Shared memory per SM that a carveout preference gives before the launch's own need is taken
/// into account (the preference rounded up to a supported size; the fixed size before Volta).
std::int64_t carveout_smem_per_sm(const arch_spec& arch, int carveout);

/// Parses "49152", "48K", "48KB", "48KiB", "1M" (K = 1024); throws usage_error naming `what`.
std::int64_t parse_size(std::string_view text, std::string_view what);

/// Parses a carveout: "-1", "default", "50", "50%", "max_shared" (100), "max_l1" (0).
int parse_carveout(std::string_view text);

/// "48 KB", "1.5 KB", "300 B"
std::string format_bytes(std::int64_t bytes);

// ---------------------------------------------------------------------------------------------
// Cliffs

/// The launch parameter a cliff or a sweep varies.
enum class occupancy_variable { block_size, registers, shared_memory };

/// "block_size", "registers", "shared_memory"
std::string_view to_string(occupancy_variable v);

/// One value of a varied parameter and the occupancy there.
struct occupancy_point {
  std::int64_t value = 0; ///< threads, registers per thread, or static + dynamic bytes
  int active_blocks = 0;
  int active_warps = 0;
  double occupancy = 0;
  unsigned limiters = 0;
};

// ---------------------------------------------------------------------------------------------
// Suggestions

/// Dynamic shared memory as a function of the block size (bytes for `threads`).
using smem_for_block_size = std::function<std::int64_t(int threads)>;

/// The block size with the most resident threads (cudaOccupancyMaxPotentialBlockSize's search).
struct block_size_suggestion {
  int block_size = 0;    ///< 0 when no block size fits
  int active_blocks = 0; ///< per SM at that size
  int active_warps = 0;
  double occupancy = 0;
  std::int64_t dynamic_smem = 0; ///< the dynamic shared memory at that size
  /// One full wave: active_blocks x SMs (cudaOccupancyMaxPotentialBlockSize's minGridSize).
  int min_grid_size(int sm_count) const { return active_blocks * sm_count; }
};

/// Tries block sizes downward from min(block_size_limit, arch max) in warp steps; ties go to the
/// larger block, as the CUDA runtime does. `smem` (optional) gives the dynamic shared memory
/// per block size; otherwise launch.dynamic_smem is used. block_size_limit 0 = arch maximum.
block_size_suggestion suggest_block_size(const arch_spec& arch, const launch_params& launch,
                                         const smem_for_block_size& smem = {},
                                         int block_size_limit = 0);

/// The largest register count (a multiple of 8) that keeps a target occupancy.
struct register_suggestion {
  double target_occupancy = 0;
  int max_registers = 0;     ///< 0 when the target cannot be met at any register count
  int active_blocks = 0;     ///< at max_registers
  double occupancy = 0;      ///< at max_registers
  int min_blocks_per_sm = 0; ///< the blocks needed for the target (the 2nd launch bound)
  std::string launch_bounds; ///< "__launch_bounds__(256, 8)"
  std::string maxrregcount;  ///< "-maxrregcount=32"
};

/// The occupancy reachable at this block size and shared memory when registers do not limit.
double register_free_occupancy(const arch_spec& arch, const launch_params& launch);

/// Largest multiple of 8 (at most the arch maximum) with occupancy >= target (0 < target <= 1).
register_suggestion suggest_registers(const arch_spec& arch, const launch_params& launch,
                                      double target_occupancy);

/// The largest dynamic shared memory that still lets `blocks` blocks reside on an SM.
struct smem_suggestion {
  int blocks = 0;
  std::int64_t max_dynamic_smem = -1; ///< -1 when `blocks` blocks cannot reside at any size
  /// What cudaOccAvailableDynamicSMemPerBlock (and the runtime) report: they forget the
  /// reserved shared memory per block, so on CC >= 8 this can be too large. -1 = error there.
  std::int64_t runtime_reported = -1;
  bool runtime_overreports = false; ///< runtime_reported gives fewer than `blocks` blocks
};

/// Correct maximum dynamic shared memory for `blocks` resident blocks (static and reserved
/// shared memory accounted for), with the runtime's figure beside it.
smem_suggestion max_dynamic_smem_for_blocks(const arch_spec& arch, const launch_params& launch,
                                            int blocks);

/// The largest block count worth asking max_dynamic_smem_for_blocks for (the limit of every
/// resource but shared memory).
int blocks_without_smem_limit(const arch_spec& arch, const launch_params& launch);

/// The effect of one carveout setting.
struct carveout_effect {
  int carveout = 0;                ///< percent; -1 = default
  std::int64_t preferred_smem = 0; ///< the preference rounded up to a supported size
  std::int64_t smem_per_sm = 0;    ///< what the launch gets (may exceed the preference)
  int active_blocks = 0;
  double occupancy = 0;
};

/// One row per supported shared-memory size (the smallest percent that selects it) and the
/// default; a single row for architectures with fixed shared memory.
std::vector<carveout_effect> carveout_effects(const arch_spec& arch, const launch_params& launch);

/// An upper bound on co-resident clusters: floor(blocks per SM x SMs / cluster size). The real
/// number depends on the GPC layout of the SKU (cudaOccupancyMaxActiveClusters); labelled bound.
struct cluster_bound {
  int cluster_size = 0;
  bool portable = true;
  int max_active_clusters_bound = 0; ///< 0 when sm_count is unknown
};

/// Bounds for cluster sizes 1, 2, 4, 8 (and 16 where non-portable clusters exist); empty before
/// CC 9.0. sm_count 0 = unknown.
std::vector<cluster_bound> cluster_bounds(const arch_spec& arch, int active_blocks, int sm_count);

// ---------------------------------------------------------------------------------------------
// Sweeps (the three graphs of the CUDA occupancy spreadsheet)

/// Active warps against one parameter, the other parameters held at the launch's values.
struct occupancy_sweep {
  occupancy_variable variable = occupancy_variable::block_size;
  std::vector<occupancy_point> points; ///< ascending values
  occupancy_point current;             ///< the launch itself
  int max_warps_per_sm = 0;
};

/// Block size: every multiple of the warp size (and the launch's size); registers: 1..max;
/// shared memory: static + dynamic from the static size to the opt-in maximum, in allocation
/// units, with the exact boundary values.
occupancy_sweep sweep_occupancy(const arch_spec& arch, const launch_params& launch,
                                occupancy_variable variable);

} // namespace roofkit

// ---- occupancy ptxas ----
// Reads the resource usage that `nvcc -Xptxas -v` (ptxas --verbose) prints for every kernel.
namespace roofkit {

/// One kernel (entry function) compiled by ptxas for one architecture.
struct ptxas_kernel {
  std::string mangled_name; ///< as ptxas prints it ("_Z4kernILi64EEvPfPKf")
  std::string name;         ///< demangled when possible ("void kern<64>(float*, float const*)")
  std::string arch;         ///< "sm_90" (a/f suffix kept: "sm_90a")
  int registers = 0;
  int barriers = -1; ///< -1 when the log does not say (older toolkits)
  std::int64_t static_smem = 0;
  std::int64_t stack_frame = 0;
  std::int64_t spill_stores = 0;
  std::int64_t spill_loads = 0;
};

/// Every entry function in a ptxas verbose log, in log order. Device functions (without a
/// "Compiling entry function" line) are skipped. Returns an empty list when none is found.
std::vector<ptxas_kernel> parse_ptxas_log(std::string_view log);

/// The demangled form of an Itanium C++ name, or the name itself. Where the C++ runtime's
/// demangler gives up (libstdc++ refuses names over 1,024 characters, as long CUTLASS and cuDNN
/// kernels have), the mangled_outline() of the name.
std::string demangle(const std::string& mangled);

/// The outline of a mangled function name in a namespace or class ("_ZN..."): its scope and name
/// and, where it has template arguments, the scope and name of the first one when that is a class
/// (its own arguments "<…>"), then ", …" for what was not read:
/// "cutlass::Kernel<cutlass::conv::kernel::ImplicitGemmConvolution<…>, …>". Empty for any other
/// name, or one it cannot read.
std::string mangled_outline(std::string_view mangled);

} // namespace roofkit

// ---- occupancy batch ----
// Batch occupancy: one CSV row per launch in, one JSON object per row out (JSON Lines).
namespace roofkit {

/// The CSV header a batch file must start with.
inline constexpr std::string_view occupancy_batch_header =
    "arch,threads,regs,smem_static,smem_dynamic,carveout";

/// What a batch run did.
struct batch_summary {
  std::size_t rows = 0;    ///< data rows read (blank lines skipped)
  std::size_t invalid = 0; ///< rows answered with {"error": ...}
  std::string first_error; ///< "line 7: ..." for the first invalid row
};

/// Computes every row of `csv` and appends one JSON object per row to `jsonl`, in order:
/// {"line":2,"arch":"sm_90","threads":256,"regs":32,"smem_static":0,"smem_dynamic":0,
///  "carveout":-1,"active_blocks_per_sm":8,"active_warps_per_sm":64,"occupancy":1,
///  "limiters":["warps","registers"]} (plus "reason" when no block fits), or
/// {"line":3,"error":"..."} for an invalid row. Sizes accept K/M suffixes; carveout -1 is the
/// default. Throws usage_error when the header is not occupancy_batch_header.
batch_summary run_occupancy_batch(std::string_view csv, std::string& jsonl);

} // namespace roofkit

// ---- occupancy report ----
// Report tables of occupancy results (Markdown / CSV / JSON through the printer interface).
namespace roofkit {

/// The GPU a report is for: an architecture, and the product when known.
struct occupancy_target {
  const arch_spec* arch = nullptr;
  std::string gpu_name; ///< "NVIDIA H100 80GB HBM3"; empty when only the architecture is known
  int sm_count = 0;     ///< 0 when unknown
  std::string origin;   ///< where the target came from, as the caller words it (e.g. its flag)
  /// How to give the SM count where it is unknown (a tool names its flags), shown beside bounds
  /// that need it; "" says only that they need it.
  std::string sm_count_hint;
};

/// The schema of the occupancy JSON documents (bump the major version on any incompatible
/// change): `{"schema": ..., "<table id>": {record} or [rows]}`.
inline constexpr const char* occupancy_schema = "roofkit.occupancy/2";

/// A table, and whether it is one record (one row), shown as Field | Value in Markdown.
struct report_section {
  table data;
  bool record = false;
};

/// Prints the sections in `format`. Markdown transposes records. JSON is one object with the
/// schema and one member per table: an object for a record, a list of row objects otherwise.
/// CSV prints one table only: the one named `only` (empty: the first), since several tables
/// one after another are no CSV. A non-empty `only` restricts Markdown and JSON too. Throws
/// usage_error naming the valid ids when `only` names no section.
void print_report(const std::vector<report_section>& sections, output_format format,
                  std::ostream& out, const std::string& only = {});

/// The ids of the sections, in order ("target, launch, occupancy, limits").
std::string section_ids(const std::vector<report_section>& sections);

/// The launch of a kernel of a ptxas log on `arch`: `base` with the kernel's registers, static
/// shared memory and (when the log gives them) barriers. Throws usage_error naming the kernel and
/// the architecture when that launch is invalid there.
launch_params ptxas_launch(const ptxas_kernel& kernel, const arch_spec& arch,
                           const launch_params& base);

/// A warning when `target.arch` is set and the log compiled kernels for another architecture
/// (which one the numbers are for, and what to do); empty when they agree or no target is set.
std::string ptxas_arch_mismatch(const std::vector<ptxas_kernel>& kernels,
                                const occupancy_target& target);

/// The target in words: "NVIDIA H100 80GB HBM3, sm_90 (Hopper, CC 9.0)".
std::string target_name(const occupancy_target& target);

/// The default report: "target", "launch", "occupancy" (records) and "limits" (one row per
/// resource, limiters highlighted), with the notes (opt-in assumed, runtime defaults).
std::vector<report_section> occupancy_report(const occupancy_target& target,
                                             const launch_params& launch,
                                             const occupancy_result& result);

/// Options of the suggestions.
struct suggest_options {
  double target_occupancy = 0;      ///< 0 = the occupancy reachable without a register limit
  std::int64_t smem_per_thread = 0; ///< dynamic shared memory growing with the block size
  int blocks = 0;                   ///< 0 = every block count up to the non-smem limit
};

/// "block_size", "registers", "smem_for_blocks", "carveouts" and (CC >= 9) "clusters".
std::vector<report_section> suggest_report(const occupancy_target& target,
                                           const launch_params& launch,
                                           const suggest_options& options);

/// One table per sweep: "sweep_block_size", "sweep_registers", "sweep_shared_memory".
std::vector<report_section> sweep_report(const std::vector<occupancy_sweep>& sweeps);

/// "kernels": the occupancy of each kernel at `base`'s block size, dynamic shared memory and
/// carveout (registers, static shared memory and barriers from the log; see ptxas_launch). The
/// kernel's own architecture is used unless `target.arch` is set. Throws usage_error when a
/// kernel's architecture is unknown or its launch is invalid there. Its cliffs:
/// ptxas_cliffs_report (roofkit/cliff.hpp).
std::vector<report_section> ptxas_report(const std::vector<ptxas_kernel>& kernels,
                                         const occupancy_target& target, const launch_params& base);

} // namespace roofkit

#pragma once
// roofkit/run.hpp: the data model of a run: kernels, launches, counters, precisions, levels.

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofkit {

/// Arithmetic kinds that have their own compute roof.
enum class precision {
  fp64,        ///< FP64 on the CUDA cores (DADD, DMUL, DFMA)
  fp32,        ///< FP32 on the CUDA cores (FADD, FMUL, FFMA)
  fp16,        ///< FP16 on the CUDA cores (HADD, HMUL, HFMA, half2 counted per lane)
  tensor_fp64, ///< FP64 tensor cores
  tensor_tf32, ///< TF32 tensor cores
  tensor_fp16, ///< FP16/BF16 tensor cores
  tensor_fp8,  ///< FP8 tensor cores
  tensor_int8, ///< INT8 tensor cores (operations, not FLOPs)
  bf16,        ///< BF16 on the CUDA cores (bfloat162 HFMA2.BF16, counted per lane)
};

/// Memory levels that have their own bandwidth roof.
enum class memory_level {
  l1,   ///< L1 / shared memory (per SM, summed over SMs)
  l2,   ///< L2 cache
  dram, ///< device memory (HBM / GDDR)
};

/// Where a ceiling's value comes from.
enum class ceiling_source { theoretical, measured };

/// One roof: a compute peak (FLOP/s) for a precision or a bandwidth (bytes/s) for a level.
struct ceiling {
  bool is_memory = false;
  precision prec = precision::fp32;        ///< when !is_memory
  memory_level level = memory_level::dram; ///< when is_memory
  double value = 0;                        ///< FLOP/s or bytes/s
  ceiling_source source = ceiling_source::theoretical;
  double sm_clock_mhz = 0;  ///< the SM clock the value holds at
  double mem_clock_mhz = 0; ///< the memory clock the value holds at
  std::string method;       ///< how it was obtained ("datasheet", "copy kernel", ...)
};

/// Where a run came from; shown on every chart and table.
enum class run_origin {
  measured,    ///< counters and timings measured on the GPU named in the context
  analytical,  ///< declared FLOPs and bytes with measured times (no counter access)
  imported,    ///< built from an Nsight Compute CSV export
  recorded,    ///< a run recorded earlier on another machine and replayed from data/
  timing_only, ///< verified and timed, no counters (no access): kernels are not placed
};

/// The context block of a results file (google/benchmark style).
struct run_context {
  std::string tool_version;
  std::string git_revision;
  std::string date; ///< ISO 8601, UTC
  std::string host;
  std::string gpu_uuid;   ///< the measured GPU's UUID ("GPU-..."); decides "this machine"
  std::string machine_id; ///< /etc/machine-id of the host; decides it for runs without a GPU
  std::string device_name;
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;
  std::string driver_version;
  std::string runtime_version;
  double sm_clock_mhz = 0;  ///< SM clock observed during the run
  double mem_clock_mhz = 0; ///< memory clock observed during the run
  run_origin origin = run_origin::measured;
  std::string command; ///< the command line that produced the run
  /// Cache control of the profiled passes: "all" (each pass starts with an L2 holding no data
  /// of the run and no dirty lines) or "none"; empty when unknown (older runs, imports).
  std::string cache_control;
  /// Clock control: "base" (locked to the base clock) or "none" (each kernel's own clock from
  /// its counters); empty when unknown.
  std::string clock_control;
  std::map<std::string, std::string> extra;
  /// What changed the run's numbers without failing it (a fallback, a substitution), one
  /// sentence each; printed under the provenance line.
  std::vector<std::string> notes;
};

/// Launch configuration of one kernel.
struct launch_config {
  std::array<std::uint32_t, 3> grid{1, 1, 1};
  std::array<std::uint32_t, 3> block{1, 1, 1};
  std::uint32_t dynamic_smem_bytes = 0;
  std::uint32_t static_smem_bytes = 0;
  std::uint32_t registers_per_thread = 0;
  std::uint32_t local_bytes_per_thread = 0;      ///< local memory per thread (spills, stack)
  std::array<std::uint32_t, 3> cluster{1, 1, 1}; ///< thread-block cluster shape; 1,1,1: none
  /// Grid blocks over (SMs x blocks per SM), as ncu's launch__waves_per_multiprocessor.
  std::optional<double> waves_per_sm;
};

/// Kernel time statistics over the timed repetitions.
struct timing {
  double median_s = 0;
  double min_s = 0;
  double max_s = 0;
  int repetitions = 0;
};

/// How a kernel's FLOPs and bytes were obtained.
enum class work_source { counters, analytical, imported };

/// One kernel in a run: what it did (FLOPs, bytes), how long it took, raw counters beside.
struct kernel_result {
  std::string name;         ///< the name as recorded (demangled when known)
  std::string display_name; ///< short label, unique within the run (assign_display_names)
  std::string mangled_name; ///< the symbol, when known ("" otherwise)
  std::string topic;
  std::string claim; ///< the seed claim it illustrates, if any
  std::string size;  ///< problem size, e.g. "N=67108864"
  launch_config launch;
  timing time;
  std::map<precision, double> flops;       ///< FLOPs (or ops) per precision
  std::map<memory_level, double> bytes;    ///< bytes moved per level
  std::optional<double> minimal_bytes;     ///< the fewest DRAM bytes the algorithm must move
  std::optional<double> algorithmic_flops; ///< declared FLOPs of the algorithm
  work_source source = work_source::counters;
  std::string status = "ok";                   ///< "ok", "failed" (verification), "error"
  std::string message;                         ///< why it failed, when it did
  std::optional<double> occupancy_theoretical; ///< 0..1
  std::optional<double> occupancy_achieved;    ///< 0..1
  std::map<std::string, double> counters;      ///< raw metric values by full metric name
  std::optional<double> sm_clock_mhz;          ///< SM clock the kernel ran at (its own counters)
  std::optional<double> mem_clock_mhz;         ///< DRAM clock the kernel ran at (its own counters)
  std::optional<double> gpu_time_s;            ///< GPU duration of one launch from the counters
  /// Launch overhead still dominates the timed interval (time per launch near the empty-launch
  /// cost): the time, and so the achieved rates, are upper and lower bounds only.
  bool overhead_dominated = false;
};

/// A complete run: context, ceilings and kernels. A chart is a pure function of this.
struct run {
  run_context context;
  std::vector<ceiling> ceilings;
  std::vector<kernel_result> kernels;
};

/// Stable lowercase names used in JSON, CSV and charts ("fp32", "tensor_fp16", "dram", ...).
std::string to_string(precision p);
std::string to_string(memory_level l);
std::string to_string(ceiling_source s);
std::string to_string(run_origin o);
std::string to_string(work_source s);
/// Human labels ("FP32", "Tensor FP16", "DRAM", "L2", "L1/shared").
std::string label(precision p);
std::string label(memory_level l);
/// Inverse of to_string; nullopt for an unknown name.
std::optional<precision> parse_precision(const std::string& name);
std::optional<memory_level> parse_memory_level(const std::string& name);

/// A kernel name shortened for charts and tables: no leading "void ", no argument list, long
/// template arguments elided ("ns::kernel<…>"), at most `max_chars` characters (UTF-8 aware).
std::string short_kernel_name(const std::string& name, std::size_t max_chars);

/// A short name people recognise: no return type, namespaces or argument list, no template
/// arguments; library kernels whose names encode a configuration (cuBLAS nvjet/xmma, CUTLASS,
/// attention) get a readable form ("GEMM bf16, tile 64x64 (CUTLASS)").
std::string display_kernel_name(const std::string& demangled);

/// One label per kernel of the run, unique within it and at most `max_chars` characters: the
/// display name, with the template arguments that tell apart kernels of the same function, and
/// "#2", "#3" (with the grid when known) when nothing else does. A kernel's stored
/// display_name is used when set. Same order as r.kernels.
std::vector<std::string> kernel_labels(const run& r, std::size_t max_chars = 60);

/// Sets every kernel's display_name to kernel_labels(r) (unique within the run).
void assign_display_names(run& r);

/// The GPU time a kernel holds in its run: all its launches in an application run (the profile's
/// total), else its median time.
double kernel_gpu_time(const kernel_result& k);

/// The run reduced to the `n` kernels holding most of the GPU time, the others folded into one
/// kernel "other (K kernels)" whose FLOPs, bytes and time are their sums; every display name
/// ends with the kernel's share of the time ("softmax 23%"). The kernels keep their order by
/// time, largest first.
run top_kernels_run(const run& r, std::size_t n);

/// Every precision and every level, in display order.
inline constexpr std::array<precision, 9> all_precisions{
    precision::fp64,        precision::fp32,        precision::fp16,
    precision::bf16,        precision::tensor_fp64, precision::tensor_tf32,
    precision::tensor_fp16, precision::tensor_fp8,  precision::tensor_int8};
inline constexpr std::array<memory_level, 3> all_memory_levels{memory_level::l1, memory_level::l2,
                                                               memory_level::dram};

} // namespace roofkit

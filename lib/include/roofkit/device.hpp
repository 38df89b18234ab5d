#pragma once
// roofkit/device.hpp: the device model: live query, offline specs, theoretical peaks.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofkit/printer.hpp"
#include "roofkit/run.hpp"

namespace roofkit {

/// One GPU product's published facts: an entry of data/gpus.json. Units are SI in memory
/// (FLOP/s, bytes/s, bytes); the JSON file uses TFLOP/s, GB/s and bytes.
struct gpu_spec {
  std::string name; ///< canonical name, e.g. "H100 SXM"
  std::vector<std::string>
      aliases;         ///< other names, e.g. the nvidia-smi name "NVIDIA H100 80GB HBM3"
  std::string segment; ///< "datacenter", "workstation" or "geforce"
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;
  double boost_clock_mhz = 0;  ///< the clock FP32/FP64 peaks are quoted at
  double tensor_clock_mhz = 0; ///< the clock non-FP64 tensor peaks are quoted at (0: boost)
  std::string memory_type;     ///< "HBM3", "GDDR6X", ...
  double memory_gb = 0;        ///< capacity as marketed (GB)
  int bus_width_bits = 0;
  double memory_clock_mhz = 0; ///< CUDA's convention: half the per-pin data rate
  std::int64_t l2_bytes = 0;
  std::map<precision, double> datasheet_flops; ///< dense peaks, FLOP/s (INT8: op/s)
  double datasheet_dram_bandwidth = 0;         ///< bytes/s
  std::map<std::string, std::string> sources;  ///< field key -> citation(s) for its value
  std::vector<std::string> unconfirmed;        ///< field keys not confirmed by a primary source
  std::string notes;
};

/// Reads every GPU of data/gpus.json (read_data_file). Throws usage_error naming the file and
/// the problem when it is malformed (bad JSON, missing field, unknown source id, duplicate name).
std::vector<gpu_spec> load_gpu_specs();
/// Parses the text of a gpus.json file; `origin` names it in error messages.
std::vector<gpu_spec> parse_gpu_specs(std::string_view json_text, std::string_view origin);

/// The matching key of a GPU name: lowercase letters and digits only, a leading "nvidia"
/// dropped ("NVIDIA H100-SXM" -> "h100sxm").
std::string normalize_gpu_name(std::string_view name);
/// Finds a GPU by name or alias: case-insensitive, ignoring spaces, dashes and underscores;
/// an exact match wins, else an unambiguous prefix. Throws usage_error listing the candidates
/// when the name is ambiguous, or every known name when it matches nothing.
gpu_spec find_gpu(std::string_view name);
/// find_gpu over the given specs.
gpu_spec find_gpu(std::string_view name, const std::vector<gpu_spec>& specs);
/// The spec whose name or alias equals `device_name` (normalized), if any. Never throws.
std::optional<gpu_spec> match_gpu(std::string_view device_name, const std::vector<gpu_spec>& specs);

/// Where a device model's facts come from.
enum class model_origin {
  live, ///< queried from a GPU through the CUDA runtime and driver
  spec, ///< built offline from a data/gpus.json entry and the per-CC tables
};
std::string to_string(model_origin o);

/// What a GPU can do: the facts the roofline and occupancy models need, from a live query
/// or from a spec. Both paths fill every field (sizes per CC come from the CC table offline).
struct device_model {
  std::string name;      ///< device name (live: as the driver reports it)
  std::string spec_name; ///< matching data/gpus.json entry, "" when none
  /// The spec's fields that rest on no primary source (gpu_spec::unconfirmed): the roofs built
  /// from them say so in their method.
  std::vector<std::string> unconfirmed;
  model_origin origin = model_origin::spec;
  int ordinal = -1; ///< CUDA device ordinal (live only)
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;
  double sm_clock_mhz = 0;     ///< maximum (boost) SM clock
  double tensor_clock_mhz = 0; ///< clock the non-FP64 tensor roofs are computed at
  double memory_clock_mhz = 0; ///< CUDA convention: half the per-pin data rate
  int bus_width_bits = 0;
  std::string memory_type; ///< from the spec ("" when unknown)
  std::int64_t global_memory_bytes = 0;
  std::int64_t l2_bytes = 0;
  int l1_shared_bytes_per_sm = 0; ///< unified L1 + shared memory capacity per SM
  int shared_memory_per_sm_bytes = 0;
  int shared_memory_per_block_bytes = 0;       ///< without opt-in (48 KB)
  int shared_memory_per_block_optin_bytes = 0; ///< with cudaFuncSetAttribute opt-in
  int reserved_shared_memory_per_block_bytes = 0;
  int registers_per_sm = 0;
  int registers_per_block = 0;
  int max_threads_per_sm = 0;
  int max_threads_per_block = 0;
  int max_blocks_per_sm = 0;
  int warp_size = 32;
  bool consumer_tensor_rates = false; ///< GeForce: float tensor MMA at half rate (FP32 accumulate)
  std::string driver_version;         ///< live only, e.g. "13.0"
  std::string runtime_version;        ///< live only
};

/// The model of a GPU from its spec (sizes per SM from the CC table).
device_model model_from_spec(const gpu_spec& spec);
/// The model of the live GPU `ordinal` (CUDA runtime attributes; name and driver version through
/// driver_function, never libcuda at link time). No GPU or no driver: no_device_error. Ordinal
/// out of range: usage_error with the valid range. Matches the name against data/gpus.json to
/// fill the memory type and the tensor clock.
device_model query_device(int ordinal);

/// Per-SM, per-clock throughput of one compute capability (the CC table, with its sources).
struct sm_throughput {
  int cc_major = 0;
  int cc_minor = 0;
  std::map<precision, double> flop_per_clk; ///< dense FLOP (INT8: op) per clock per SM
  double l1_bytes_per_clk = 0;              ///< L1/shared bytes per clock per SM (estimate)
  double l2_bytes_per_clk = 0;              ///< L2 bytes per clock per SM
  bool l2_published = false;                ///< false: l2_bytes_per_clk is an estimate
  std::string source;                       ///< where the CUDA-core rates come from
  std::string tensor_source;                ///< where the tensor rates come from
  std::string l2_source;                    ///< where the L2 rate comes from
  bool exact = true;                        ///< false: nearest known CC used for this CC
};
/// The throughput table entry for a CC; with `consumer` (GeForce) the TF32/FP16/FP8 tensor rates
/// are halved. An unknown CC takes the nearest lower known CC (exact = false); nullopt below 7.0.
std::optional<sm_throughput> throughput_for_cc(int cc_major, int cc_minor, bool consumer = false);

/// Transfers per memory clock in CUDA's convention for a memory type ("HBM3", "GDDR6X", ...):
/// 2 for every type CUDA reports (the reported clock is half the per-pin data rate).
double transfers_per_clock(std::string_view memory_type);
/// Theoretical DRAM bandwidth in bytes/s: transfers_per_clock x memory clock x bus width / 8.
double dram_bandwidth(const device_model& m);

/// Theoretical roofs of a device: FP64/FP32/FP16 and tensor peaks from the CC table x SMs x
/// clock, DRAM from memory clock x bus width, L2 and L1/shared per SM per clock (estimates
/// are marked "estimate:" in ceiling.method). All ceiling_source::theoretical.
std::vector<ceiling> theoretical_ceilings(const device_model& m);

/// The model as a key/value table (id "device") for the printers.
table device_table(const device_model& m);
/// Ceilings as a table (id "ceilings"); with a spec, each roof also shows the datasheet value.
table ceilings_table(const std::vector<ceiling>& ceilings, const gpu_spec* spec = nullptr);
/// Known GPUs as a table (id "gpus").
table gpu_list_table(const std::vector<gpu_spec>& specs);

} // namespace roofkit

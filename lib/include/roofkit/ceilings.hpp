#pragma once
// roofkit/ceilings.hpp: measured ceilings and the machine file.

#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "roofkit/printer.hpp"
#include "roofkit/run.hpp"

// Empirical ceilings: microbenchmarks that measure what this GPU actually reaches, per memory
// level (working-set sweeps with a plateau fit, shared memory, DRAM streams) and per precision
// (CUDA-core FMA, mma.sync and wgmma tensor cores), each with the SM clock sampled during its
// own run, beside the references a user compares with (cudaMemcpy, cuBLAS, cuBLASLt FP8).
namespace roofkit {

/// One point of a working-set sweep: the bytes one launch moved over a working set, and its time.
struct sweep_point {
  double working_set_bytes = 0;
  double bytes = 0;
  double time_s = 0;
};

/// A range of working sets over which one level serves the data: time = latency + bytes / bw.
struct plateau {
  double bandwidth = 0;       ///< bytes/s, the fitted slope's inverse
  double latency_s = 0;       ///< fitted intercept (launch and pipeline fill)
  double working_set_min = 0; ///< smallest working set on the plateau (bytes)
  double working_set_max = 0; ///< largest
  int points = 0;             ///< sweep points in the fit (outliers dropped)
  double rms_relative_residual = 0;
};

/// How plateaus are found.
struct plateau_options {
  double tolerance = 0.10;  ///< a plateau's points stay within this relative band of its rate
  int min_working_sets = 3; ///< fewer distinct working sets is a transition, not a plateau
};

/// Segments a sweep into plateaus of near-constant rate (optimal piecewise-constant fit of the
/// log rate, short segments dropped as transitions, neighbours within tolerance merged) and
/// fits each with least squares (Eigen), dropping outliers. Ordered by working set.
std::vector<plateau> find_plateaus(std::vector<sweep_point> points,
                                   const plateau_options& options = {});

/// The memory level that serves a sweep plateau ending at `working_set_max` bytes, if it is a
/// roof candidate. A sweep whose loads are cached in the L1 (`l1_cached`) stays in the L1 while
/// the working set fits the SMs' L1s together (`l1_total_bytes`) and is no candidate beyond it;
/// the other sweeps bypass the L1 and are L2 candidates while the working set fits the L2.
/// Plateaus past the L2 (DRAM) are none: the streams set that roof.
std::optional<memory_level> sweep_plateau_level(bool l1_cached, double working_set_max,
                                                double l1_total_bytes, double l2_bytes);

/// How to measure.
struct ceilings_options {
  int device = 0;
  bool quick = true;       ///< quick (under 15 s) or full (under 2 minutes, sustained clocks)
  int repetitions = 0;     ///< timed repetitions per figure; 0: 5 quick, 10 full
  bool references = true;  ///< also time cudaMemcpy, cuBLAS and cuBLASLt
  double sustained_s = -1; ///< sustained run per compute and DRAM roof; < 0: 0 quick, 2 s full
  /// Called before each step: done, total, what.
  std::function<void(std::size_t, std::size_t, const std::string&)> progress;
};

/// One measured figure (a ceiling candidate or a reference).
struct ceiling_measurement {
  std::string name; ///< "DRAM read stream", "FP16x2 FMA 16 chains", "cuBLAS BF16 GEMM", ...
  std::string unit; ///< "B/s", "FLOP/s" or "OP/s"
  double value = 0; ///< median rate
  double best = 0;  ///< rate of the fastest repetition
  double work = 0;  ///< bytes or FLOPs per launch
  timing time;
  double theoretical = 0;            ///< the matching theoretical roof (0 when none)
  double theoretical_clock_mhz = 0;  ///< the SM clock that roof holds at
  std::string method;                ///< how it is counted
  std::optional<memory_level> level; ///< the roof it is a candidate for (memory)
  std::optional<precision> prec;     ///< the roof it is a candidate for (compute)
  bool reference = false;            ///< cudaMemcpy / cuBLAS: compared with, not a microbenchmark
  double sm_clock_mhz = 0;           ///< sampled in the kernel during the timed launches
  double sustained_value = 0;        ///< rate at the end of a sustained run (0: none)
  double sustained_sm_clock_mhz = 0; ///< clock at the end of the sustained run
  double sustained_s = 0;            ///< length of the sustained run
  std::string check = "ok";          ///< result check: "ok" or what failed
};

/// A working-set sweep and the plateaus found on it.
struct sweep_curve {
  std::string name; ///< "read (L1 cached)", "read (L2, 8-byte)", "write", "copy", "triad"
  std::vector<sweep_point> points;
  std::vector<plateau> plateaus;
  double sm_clock_mhz = 0;
};

/// Which GPU a measurement belongs to: what a cached or saved set of roofs must match.
struct gpu_identity {
  std::string uuid;         ///< "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"; "" when unknown
  std::string name;         ///< as the driver reports it
  std::string driver;       ///< driver version (NVML's, e.g. "580.95.05", else CUDA's "13.0")
  double sm_clock_mhz = 0;  ///< maximum SM clock (cudaDevAttrClockRate)
  double mem_clock_mhz = 0; ///< memory clock (cudaDevAttrMemoryClockRate)
};

/// The identity of the live GPU `device` (no_device_error without one).
gpu_identity query_gpu_identity(int device);

/// What measure_ceilings found.
struct ceilings_result {
  std::vector<ceiling> ceilings;                 ///< measured roofs (source = measured)
  std::vector<ceiling_measurement> measurements; ///< every figure, ceilings and references
  std::vector<sweep_curve> sweeps;
  double sm_clock_mhz = 0; ///< SM clock observed after the runs
  std::string sm_clock_method;
  double mem_clock_mhz = 0;
  double elapsed_s = 0; ///< wall time of the whole measurement
  gpu_identity gpu;     ///< the GPU measured (its maximum SM clock bounds every clock)
  int cc_major = 0, cc_minor = 0, sm_count = 0;
};

/// Runs the microbenchmarks on `options.device`. Throws no_device_error without a GPU.
ceilings_result measure_ceilings(const ceilings_options& options,
                                 const std::vector<ceiling>& theoretical);

/// The roofs of a set of measurements: per level and precision the best candidate that passed
/// its check (the DRAM roof at least the best reference copy), with the clock of its own run.
std::vector<ceiling> best_ceilings(const std::vector<ceiling_measurement>& measurements,
                                   double mem_clock_mhz);

/// Marks as a measurement error (its check, so it never becomes a roof) every measurement whose
/// SM clock is above `max_sm_clock_mhz` (references excepted: their clock is probed apart) or
/// whose rate is above its theoretical roof taken at that maximum clock (DRAM: at its own
/// theoretical value), beyond a 1% reading tolerance. Nothing is clamped. Returns how many.
std::size_t reject_above_hardware(std::vector<ceiling_measurement>& measurements,
                                  double max_sm_clock_mhz);

/// One line per measurement that failed its check ("NAME: CHECK"); empty when all passed.
std::vector<std::string> failed_checks(const ceilings_result& result);

/// The measurements as a table (id "ceilings_measured"): value, % of theoretical at the clock
/// observed, clocks (burst and sustained), check and method.
table measured_ceilings_table(const ceilings_result& result);
/// The plateaus of the sweeps (id "ceilings_plateaus").
table plateaus_table(const ceilings_result& result);
/// Each measured roof beside theory at its own clock and the reference it must match or beat
/// (DRAM: cudaMemcpy; tensor: the cuBLAS or cuBLASLt GEMM of that precision), id
/// "ceilings_vs_references".
table comparison_table(const ceilings_result& result);

/// A machine file: the measured ceilings of one GPU, saved for later runs.
struct machine_ceilings {
  std::string device_name;
  gpu_identity gpu; ///< the GPU it was measured on (uuid, driver, clocks; "" in older files)
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;
  std::string date;    ///< ISO 8601, UTC
  std::string command; ///< the command that measured it
  std::string tool_version;
  std::vector<ceiling> ceilings; ///< source = measured, each with its clocks
  std::vector<ceiling_measurement> measurements;
  std::vector<sweep_curve> sweeps; ///< written for the record; not read back
};

/// A machine file of `result` for the named device, dated now, with this roofkit's version.
machine_ceilings make_machine_ceilings(const ceilings_result& result, std::string device_name,
                                       int cc_major, int cc_minor, int sm_count,
                                       std::string command);
/// The machine file as `roofkit.machine/1` JSON text.
std::string machine_json_text(const machine_ceilings& m);
/// Writes a machine file atomically (runtime_error on failure).
void save_machine_ceilings(const std::filesystem::path& path, const machine_ceilings& m);
/// Parses a machine file; usage_error naming `source_name` and what is wrong.
machine_ceilings parse_machine_ceilings(const std::string& text, const std::string& source_name);
/// Reads a machine file and returns its measured ceilings (source measured, clocks set).
std::vector<ceiling> load_machine_ceilings(const std::filesystem::path& path);
/// Replaces the measured roofs of `roofs` by `measured` (theoretical roofs are kept).
void apply_measured_ceilings(std::vector<ceiling>& roofs, const std::vector<ceiling>& measured);

/// Why machine file `m` does not belong to the GPU `here` ("" when it does): another UUID where
/// both have one, else another name (compared as normalize_gpu_name does), or no GPU named.
std::string machine_gpu_mismatch(const machine_ceilings& m, const gpu_identity& here);

/// Reads machine file `path` for the GPU `here`: usage_error naming both GPUs when it was
/// measured on another one, unless `any_gpu`; then `*accepted_note` (when given) says so.
machine_ceilings load_machine_file_for(const std::filesystem::path& path, const gpu_identity& here,
                                       bool any_gpu, std::string* accepted_note = nullptr);

/// True when `path` reads as a machine file (`roofkit.machine/1`), not e.g. a run file.
bool is_machine_file(const std::filesystem::path& path);

// ---- measured roofs by default: measured once per GPU and cached ----

/// The cache key of a GPU's roofs: its UUID, driver version and SM and memory clocks. Roofs
/// cached under another key (a new driver, other clocks) are measured again.
std::string ceilings_cache_key(const gpu_identity& gpu);
/// The cache file of a GPU in `dir` (one per UUID, or per name when there is no UUID).
std::filesystem::path ceilings_cache_path(const std::filesystem::path& dir,
                                          const gpu_identity& gpu);

/// Where the roofs of a run come from.
struct roofs_request {
  /// "" : measured roofs of this GPU, from the cache or measured now (quick set) and cached;
  /// "theoretical": theoretical roofs only; anything else: a machine file's path.
  std::string ceilings;
  bool any_gpu = false; ///< accept a machine file measured on another GPU
  int device = 0;
  std::filesystem::path cache_dir; ///< "" : default_cache_dir()
  std::string command;             ///< recorded in a cache file made now
  /// Progress of a measurement made now (done, total, what) and what is being done (one line
  /// each, e.g. "measuring ..."): for a terminal.
  std::function<void(std::size_t, std::size_t, const std::string&)> progress;
  std::function<void(const std::string&)> info;
  /// Diagnostics that change what is used (a corrupt cache, another GPU's file): one line each.
  std::function<void(const std::string&)> warn;
  /// The measurement and the GPU query; empty: measure_ceilings (quick) and query_gpu_identity.
  std::function<ceilings_result(const ceilings_options&, const std::vector<ceiling>&)> measure;
  std::function<gpu_identity(int)> identify;
};

/// The roofs chosen for a run.
struct chosen_roofs {
  std::vector<ceiling> measured;         ///< measured roofs to use; empty: theoretical ones only
  std::string origin;                    ///< "cache", "measured", "file" or "theoretical"
  std::string date;                      ///< when the measured roofs were measured
  std::string path;                      ///< the cache or machine file read or written
  std::string note;                      ///< for the run: which roofs, from where, measured when
  std::optional<ceilings_result> result; ///< the measurement, when made now
};

/// The roofs a run uses, as `request` asks. A cache hit reads the cache file; a miss (none, a
/// stale key, or a corrupt file: then one warning) measures the quick set and caches it when
/// every check passed (otherwise the passing roofs are used, not cached, with a warning).
/// A machine file measured on another GPU: usage_error unless any_gpu (then one warning).
chosen_roofs choose_roofs(const roofs_request& request, const std::vector<ceiling>& theoretical);

} // namespace roofkit

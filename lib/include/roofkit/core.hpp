#pragma once
// roofkit/core.hpp: errors and exit codes, the CUDA driver API, build facts, data files, device and
// counter checks, progress.

#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

// ---- error location ----
// Where an internal error happened, as users see it: never the build machine's absolute path.
namespace roofkit::detail {

/// A source file as errors show it: relative to the project's top folder ("lib/src/x.cpp"), or
/// its base name.
std::string relative_source_path(std::string_view file);

} // namespace roofkit::detail

// ---- error ----
namespace roofkit {

/// Process exit codes shared by every roofkit tool (see docs/design.md).
enum class exit_code : int {
  ok = 0,        ///< success
  failure = 1,   ///< a runtime failure (CUDA error, failed verification, I/O error)
  usage = 2,     ///< bad usage or bad input (flags, files, values out of range)
  no_device = 3, ///< no GPU, or no access to its performance counters
  /// profiling an application: launches were selected, but none of them was profiled
  none_profiled = 4,
};

/// The one exception type of roofkit: a one-line message, an exit code, and an optional hint
/// that says what the user can do about it.
class error : public std::runtime_error {
public:
  /// An error with the given exit code, message and hint.
  error(exit_code code, const std::string& message, std::string hint = {});
  /// The exit code a tool should end with.
  exit_code code() const noexcept { return code_; }
  /// What the user can do about it; may be empty.
  const std::string& hint() const noexcept { return hint_; }

private:
  exit_code code_;
  std::string hint_;
};

/// Bad usage or input (exit code 2). The message names the bad value and the valid range.
error usage_error(const std::string& message);
/// A runtime failure (exit code 1).
error runtime_error(const std::string& message, std::string hint = {});
/// No GPU or no counter access (exit code 3).
error no_device_error(const std::string& message, std::string hint = {});

namespace detail {
[[noreturn]] void throw_cuda_error(int status, const char* call, const char* file, int line);
[[noreturn]] void throw_cu_error(int status, const char* call, const char* file, int line);
[[noreturn]] void throw_cupti_error(int status, const char* call, const char* file, int line);
[[noreturn]] void throw_nvpw_error(int status, const char* call, const char* file, int line);
} // namespace detail

} // namespace roofkit

// The body of the checks below: `thrower` names the failed call (`text`, spelled as written:
// stringified by the caller, before macros such as cuCtxCreate -> cuCtxCreate_v2 expand), file
// and line.
#define ROOFKIT_DETAIL_STATUS_CHECK(call, text, thrower)                                           \
  do {                                                                                             \
    const auto roofkit_status_ = (call);                                                           \
    if (static_cast<int>(roofkit_status_) != 0)                                                    \
      ::roofkit::detail::thrower(static_cast<int>(roofkit_status_), text, __FILE__, __LINE__);     \
  } while (0)

/// Checks a CUDA runtime call; on failure throws roofkit::error naming the call, file and line.
#define ROOFKIT_CUDA_CHECK(call) ROOFKIT_DETAIL_STATUS_CHECK(call, #call, throw_cuda_error)

/// Checks the last kernel launch: use right after `kernel<<<...>>>(...)`.
#define ROOFKIT_CUDA_CHECK_LAUNCH() ROOFKIT_CUDA_CHECK(cudaGetLastError())

/// Checks a CUDA driver API call (CUresult).
#define ROOFKIT_CU_CHECK(call) ROOFKIT_DETAIL_STATUS_CHECK(call, #call, throw_cu_error)

/// Checks a CUPTI call (CUptiResult).
#define ROOFKIT_CUPTI_CHECK(call) ROOFKIT_DETAIL_STATUS_CHECK(call, #call, throw_cupti_error)

/// Checks a call of CUPTI's Perfworks host library (NVPA_Status).
#define ROOFKIT_NVPW_CHECK(call) ROOFKIT_DETAIL_STATUS_CHECK(call, #call, throw_nvpw_error)

// ---- main guard ----
namespace roofkit {

/// Runs a tool's body and turns every exception into one line on stderr
/// ("TOOL: error: MESSAGE", then "TOOL: hint: ..." when there is one) and the documented exit
/// code (roofkit::error's code; 1 for anything else).
int guarded_main(std::string_view tool, const std::function<int()>& body);

/// True when stderr is a terminal (progress bars and colour are shown only then).
bool stderr_is_terminal();
/// True when stdout is a terminal.
bool stdout_is_terminal();

} // namespace roofkit

// ---- driver api ----
namespace roofkit {

/// Looks up a CUDA driver API function through the runtime (cudaGetDriverEntryPoint), so that
/// roofkit never links libcuda.so and its tools start on machines without a driver. Returns
/// nullptr when the driver or the symbol is missing.
void* driver_symbol(const char* name);

/// Typed form of driver_symbol: `auto f =
/// driver_function<decltype(&cuDeviceGetName)>("cuDeviceGetName");`
template <class F> F driver_function(const char* name) {
  return reinterpret_cast<F>(driver_symbol(name));
}

/// The name of a CUresult ("CUDA_ERROR_INVALID_VALUE"), or "CUresult N" without a driver.
std::string driver_error_name(int status);

/// Number of CUDA devices visible, or 0 when there is no driver or no GPU. Never throws.
int visible_device_count() noexcept;

/// A CUDA version number as the toolkit writes it: 13000 -> "13.0", 12060 -> "12.6".
std::string cuda_version_text(int version);

/// The CUDA versions of the installed driver and of the runtime roofkit was built with.
struct cuda_versions {
  std::string driver;  ///< e.g. "13.0"; "0.0" when there is no driver
  std::string runtime; ///< e.g. "12.6"
};

/// Queries both versions (cudaDriverGetVersion, cudaRuntimeGetVersion). Never throws and creates
/// no context, so it is safe inside another process (the injection library calls it).
cuda_versions query_cuda_versions() noexcept;

} // namespace roofkit

// ---- build info ----
namespace roofkit {
/// The roofkit version, e.g. "0.1.0".
std::string_view tool_version();
/// The short git revision the library was built from, or "unknown".
std::string_view git_revision();
/// The GPU architectures this build holds code for (CMAKE_CUDA_ARCHITECTURES), e.g. "90" or
/// "80;90".
std::string_view built_cuda_architectures();
/// The one-line message for a GPU this build has no code for (exit 3): names the compute
/// capability, the architectures built and the CMake setting that adds it.
std::string no_kernel_image_message(int major, int minor);
} // namespace roofkit

// ---- data files ----
namespace roofkit {

/// The data directory: $ROOFKIT_DATA_DIR if set, else the installed share/roofkit/data, else the
/// source tree's data/ (for a build tree).
std::filesystem::path data_dir();

/// Reads a data file by its path relative to the source tree ("data/gpus.json"): from the data
/// directory when present there, otherwise from the copy compiled into the library. Throws
/// roofkit::error when neither exists.
std::string read_data_file(const std::string& relative_path);

/// Reads a whole file; throws usage_error naming the path when it cannot be read.
std::string read_text_file(const std::filesystem::path& path);

/// Writes a file atomically (temporary file, then rename) so a failure leaves no half-written
/// output; throws runtime_error naming the path on failure.
void write_text_file(const std::filesystem::path& path, const std::string& text);

/// roofkit's cache directory (measured roofs, configured metric sets): $XDG_CACHE_HOME/roofkit,
/// else $HOME/.cache/roofkit; empty when neither is set.
std::filesystem::path default_cache_dir();

} // namespace roofkit

// ---- device check ----
// Checking a device ordinal before using it, with an error that lists the GPUs there are.
namespace roofkit {

/// The message for a device ordinal that does not exist: "device 7 does not exist; 1 GPU
/// visible: 0 = NVIDIA H100 80GB HBM3" (`names` are the visible devices, by ordinal).
std::string missing_device_message(int ordinal, const std::vector<std::string>& names);

/// Throws usage_error (exit 2) with missing_device_message when `ordinal` names no visible
/// device, no_device_error (exit 3) when there is no GPU at all; returns otherwise.
void require_device(int ordinal);

} // namespace roofkit

// ---- progress ----
namespace roofkit {

/// A one-line progress bar on stderr, drawn only when enabled (a terminal, not asked to be quiet).
class progress_bar {
public:
  /// `enabled` false makes every call a no-op.
  explicit progress_bar(bool enabled) : enabled_(enabled) {}
  ~progress_bar() { finish(); }
  progress_bar(const progress_bar&) = delete;
  progress_bar& operator=(const progress_bar&) = delete;
  /// Redraws the bar: `done` of `total`, and what is being worked on.
  void update(std::size_t done, std::size_t total, const std::string& label);
  /// Clears the bar's line.
  void finish();

private:
  bool enabled_;
  bool drawn_ = false;
};

} // namespace roofkit

// ---- embedded ----
namespace roofkit {
/// Text of a data file compiled into the library (path relative to the source tree, e.g.
/// "data/gpus.json" or "data/arch/sm_90.json"), or nullopt when it was not embedded.
std::optional<std::string_view> embedded_file(std::string_view path);
/// Paths of every embedded file.
std::vector<std::string_view> embedded_files();
} // namespace roofkit

// ---- host facts ----
namespace roofkit {

/// The current time in UTC, ISO 8601 to the second ("2026-11-23T21:08:30Z").
std::string utc_timestamp();

/// This machine's host name, or "unknown".
std::string host_name();

/// This machine's id (/etc/machine-id, trimmed), or "" when it has none.
std::string machine_id();

/// The UUID of a GPU as nvidia-smi prints it ("GPU-1a2b3c4d-..."), from 16 raw bytes.
std::string format_gpu_uuid(const unsigned char (&bytes)[16]);
/// The same for the `char` bytes of CUDA's cudaUUID_t.
std::string format_gpu_uuid(const char (&bytes)[16]);

/// The UUIDs of the GPUs visible to this process; empty without a GPU or driver (never throws).
std::vector<std::string> visible_gpu_uuids();

/// The UUID of one GPU (ROOFKIT_CUDA_CHECK errors); "" when the device is not there.
std::string gpu_uuid(int ordinal);

/// The median of `v` (the mean of the middle two for an even count), 0 when `v` is empty.
double median_of(std::vector<double> v);

} // namespace roofkit

#pragma once
// Starting an application under the injected library and waiting for it.
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "roofkit/app_profile.hpp"
#include "roofkit/printer.hpp"

namespace roofkit {

/// Runs `argv` (searched in PATH when it has no '/') with the current environment plus `env`
/// (which replaces variables of the same name), stdin/stdout/stderr inherited, and waits for it.
/// SIGINT and SIGTERM received meanwhile are passed to it. Throws usage_error when the program
/// cannot be started (not found, not executable).
app_outcome run_app(const std::vector<std::string>& argv,
                    const std::map<std::string, std::string>& env);

/// The injection library: `explicit_path` if not empty (it must exist), otherwise the first of
/// `candidates` that exists; usage_error naming every place looked at otherwise.
std::filesystem::path find_inject_library(const std::string& explicit_path,
                                          const std::vector<std::filesystem::path>& candidates);

/// The libcupti this process loaded (for NVTX_INJECTION64_PATH); empty when unknown.
std::string cupti_library_path();

/// The environment for a profiled application: CUDA_INJECTION64_PATH, the options, and, when an
/// NVTX range is asked for, NVTX_INJECTION64_PATH pointing to libcupti.
std::map<std::string, std::string> profile_environment(const app_profile_options& options,
                                                       const std::filesystem::path& inject_library,
                                                       const std::string& cupti_path);

} // namespace roofkit

namespace roofkit {

/// One `profile` of an application.
struct app_profile_request {
  app_profile_options options; ///< record_path is chosen here when empty
  std::vector<std::string> argv;
  std::string inject_library; ///< explicit path; empty: the first of inject_candidates
  std::vector<std::filesystem::path> inject_candidates;
  std::string ceilings_file; ///< a file with a "ceilings" array (run or machine file); "" = none
  std::string command;       ///< the command line, recorded in the run
  /// Keep the record log at this path (options.record_path); "" = a temporary file, removed.
  std::string records_file;
  /// Build the run from the record log at records_file instead of running an application.
  bool from_records = false;
  std::function<void(const std::string&)> say; ///< our messages (stderr, prefixed)
};

/// What came of it.
struct app_profile_result {
  app_outcome app;
  profile_log log;
  run result;
  profile_run_inputs inputs;
  /// The exit code for the tool: the application's when it failed, else the error record's (3:
  /// no counter access, another profiler), else 0.
  int exit_code = 0;
};

/// Starts the application under the injected library, waits, reads the records (whatever there
/// is when the application crashed) and builds the run. Ceilings: those of `ceilings_file`, or
/// the theoretical ones of the device the records name (the live device, or its data/gpus.json
/// spec without a GPU).
app_profile_result profile_application(const app_profile_request& request);

/// Reads the "ceilings" array of a run file or machine file; usage_error when there is none.
std::vector<ceiling> load_ceilings_file(const std::filesystem::path& path);

/// The per-kernel summary as a table (id "profile"): kernel, launches, profiled, total and median
/// time, share of GPU time, bound and % of roof of its first configuration.
table profile_summary_table(const run& r, const profile_log& log);

} // namespace roofkit

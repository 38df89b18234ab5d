// `profile` end to end: start the application under the injected library, read its records and
// build the run, whatever state the application ended in.
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "internal/peer_table.hpp"
#include "roofkit/app_profile.hpp"
#include "roofkit/ceilings.hpp"
#include "roofkit/core.hpp"
#include "roofkit/device.hpp"
#include "roofkit/ranks.hpp"
#include "roofkit/results.hpp"
#include "roofkit/timing.hpp"

namespace roofkit {

namespace {

std::filesystem::path temporary_record_path() {
  std::string dir = std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp";
  std::string pattern = dir + "/roofkit-profile-XXXXXX";
  const int fd = mkstemp(pattern.data());
  if (fd < 0)
    throw runtime_error(fmt::format("cannot create a record file in '{}'", dir));
  close(fd);
  return pattern;
}

// The files that the processes of one profiled application share beside its record log: the
// profiler turn's locks and a job's peer table (removed before it starts: a job gets fresh ones).
void remove_shared_files(const std::string& record_path) {
  for (const auto& f : profiler_turn::files(record_path))
    std::filesystem::remove(f);
  std::filesystem::remove(detail::peer_table::path_for(record_path));
}

// profile_environment's, with `preload` put before the user's LD_PRELOAD.
std::map<std::string, std::string> app_environment(const app_profile_options& options,
                                                   const std::filesystem::path& library,
                                                   const std::string& preload) {
  auto env = profile_environment(options, library, cupti_library_path());
  if (!preload.empty()) {
    const char* user = std::getenv("LD_PRELOAD");
    env["LD_PRELOAD"] = preload + (user && *user ? std::string(":") + user : "");
  }
  return env;
}

// The application once more, under warp-stall sampling only (stall_injector.hpp); its log.
profile_log stall_run(const app_profile_request& request, const app_profile_options& options,
                      const std::filesystem::path& library) {
  const std::string path = temporary_record_path().string();
  app_profile_options o = options;
  o.record_path = path;
  auto env = app_environment(o, library, request.preload_library);
  env["ROOFKIT_PROFILE_STALLS"] = "on";
  const app_outcome app = run_app(request.argv, env);
  std::string text;
  try {
    text = read_text_file(path);
  } catch (const error&) {
  }
  std::filesystem::remove(path);
  profile_log log = parse_profile_log(text);
  if (app.exit_code != 0 || app.signal != 0)
    log.errors.push_back(fmt::format("the application's stall-sampling run failed (exit {}, "
                                     "signal {})",
                                     app.exit_code, app.signal));
  return log;
}

} // namespace

std::size_t attach_stalls(run& r, const stall_totals& stalls) {
  std::size_t matched = 0;
  for (auto& k : r.kernels) {
    const auto it = stalls.find(k.mangled_name.empty() ? k.name : k.mangled_name);
    if (it == stalls.end())
      continue;
    ++matched;
    for (const auto& [reason, samples] : it->second)
      k.counters[stall_counter_prefix + reason] = static_cast<double>(samples);
  }
  return matched;
}

std::vector<ceiling> load_ceilings_file(const std::filesystem::path& path) {
  using json = nlohmann::ordered_json;
  const std::string text = read_text_file(path);
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("ceilings") || !j["ceilings"].is_array())
    throw usage_error(fmt::format("'{}' has no \"ceilings\" array (expected a run file or a "
                                  "machine file of measured ceilings)",
                                  path.string()));
  json wrapper = {{"schema", run_schema}, {"context", json::object()}, {"kernels", json::array()}};
  wrapper["ceilings"] = j["ceilings"];
  if (j.contains("context") && j["context"].is_object())
    wrapper["context"] = j["context"];
  return parse_run(wrapper.dump(), path.string()).ceilings;
}

namespace {

// Runs the application under stall sampling and puts the samples on the run's kernels, with a
// note; a failed stall run is said and leaves the counters of the first run as they are.
void add_stall_run(app_profile_result& out, const app_profile_request& request,
                   const app_profile_options& options) {
  if (request.say)
    request.say("sampling warp stalls: running the application once more under PC sampling");
  const auto library = find_inject_library(request.inject_library, request.inject_candidates);
  const profile_log log = stall_run(request, options, library);
  for (const auto& e : log.errors)
    if (request.say)
      request.say("warning: " + e);
  std::uint64_t samples = 0;
  std::uint64_t dropped = 0;
  for (const auto& [function, reasons] : log.stalls)
    for (const auto& [reason, n] : reasons)
      samples += n;
  for (const auto& [pid, n] : log.stall_dropped)
    dropped += n;
  const std::size_t kernels = attach_stalls(out.result, log.stalls);
  out.result.context.notes.push_back(fmt::format(
      "warp stalls: {} samples on {} kernels, from a second run of the application under CUPTI "
      "PC sampling (continuous mode); {} samples dropped by the hardware",
      samples, kernels, dropped));
}

} // namespace

app_profile_result profile_application(const app_profile_request& request) {
  auto say = [&request](const std::string& s) {
    if (request.say)
      request.say(s);
  };
  app_profile_options options = request.options;
  validate(options);
  if (request.argv.empty() && !request.from_records)
    throw usage_error("no application given: put its command line after '--'");
  if (request.from_records && request.records_file.empty())
    throw usage_error("no record file given to build the run from");
  std::vector<ceiling> file_ceilings;
  if (!request.ceilings_file.empty())
    file_ceilings = load_ceilings_file(request.ceilings_file);
  app_profile_result out;
  std::string text;
  if (request.from_records) {
    text = read_text_file(request.records_file);
    out.app.started = false;
    out.rank_logs = take_rank_logs(request.records_file, false);
  } else {
    const auto library = find_inject_library(request.inject_library, request.inject_candidates);
    // Locked before the application starts and unlocked after it ended (every visible device:
    // which ones the application uses is not known beforehand).
    std::vector<int> devices;
    if (options.clock == clock_control::base) {
      const int count = visible_device_count();
      if (count == 0)
        throw no_device_error("clock control 'base': no CUDA GPU visible to lock");
      for (int d = 0; d < count; ++d)
        devices.push_back(d);
    }
    // Nothing can be profiled without a GPU: refused before the application starts.
    if (visible_device_count() == 0)
      throw no_device_error("no CUDA GPU visible: nothing to profile (the application was not "
                            "started)",
                            "check nvidia-smi and CUDA_VISIBLE_DEVICES");
    const clock_control_state clocks = apply_clock_control(options.clock, devices);
    const bool own_record = request.records_file.empty();
    options.record_path = own_record ? temporary_record_path().string() : request.records_file;
    // The library appends its records after this one.
    write_text_file(options.record_path, clock_line(options.clock, clocks.note));
    remove_shared_files(options.record_path);
    out.app = run_app(request.argv, app_environment(options, library, request.preload_library));
    try {
      text = read_text_file(options.record_path);
    } catch (const error&) {
    }
    out.rank_logs = take_rank_logs(options.record_path, own_record);
    remove_shared_files(options.record_path);
    if (own_record)
      std::filesystem::remove(options.record_path);
  }
  out.log = parse_profile_log(text);

  profile_run_inputs& in = out.inputs;
  in.app = out.app;
  in.options = options;
  in.options.record_path.clear();
  in.command = request.command;
  in.date = utc_timestamp();
  in.host = host_name();
  std::string fallback_note; // a substitution that changes the run's numbers
  if (!file_ceilings.empty()) {
    in.ceilings = file_ceilings;
  } else if (out.log.device.count("ordinal")) {
    try {
      if (request.from_records)
        throw no_device_error("rebuilding from records");
      in.ceilings =
          theoretical_ceilings(query_device(std::atoi(out.log.device["ordinal"].c_str())));
    } catch (const error& e) {
      if (auto spec = match_gpu(out.log.device["name"], load_gpu_specs())) {
        in.ceilings = theoretical_ceilings(model_from_spec(*spec));
        fallback_note = fmt::format(
            "roofs from the {} datasheet (data/gpus.json): {}", spec->name,
            request.from_records ? std::string("a run rebuilt from records queries no device")
                                 : fmt::format("the live device query failed ({})", e.what()));
        say("note: " + fallback_note);
      } else
        say(fmt::format("warning: no ceilings: no GPU here and no spec for '{}' in "
                        "data/gpus.json",
                        out.log.device["name"]));
    }
  }
  if (file_ceilings.empty() && !request.measured_ceilings.empty())
    apply_measured_ceilings(in.ceilings, request.measured_ceilings);
  out.result = build_profile_run(out.log, in);
  if (!fallback_note.empty())
    out.result.context.notes.push_back(fallback_note);
  if (!request.from_records) { // provenance: this machine, the GPU the application ran on
    out.result.context.machine_id = machine_id();
    if (out.log.device.count("ordinal"))
      try {
        out.result.context.gpu_uuid = gpu_uuid(std::atoi(out.log.device["ordinal"].c_str()));
      } catch (const error&) {
      }
  }

  if (!request.from_records) {
    if (out.app.signal)
      say(fmt::format("the application was killed by signal {} ({}); the {} launches profiled "
                      "before are kept",
                      out.app.signal, strsignal(out.app.signal), out.log.launches.size()));
    else if (out.app.exit_code != 0)
      say(fmt::format("the application failed with exit code {}; the {} launches profiled before "
                      "are kept",
                      out.app.exit_code, out.log.launches.size()));
    else if (!out.log.finished && out.log.total_launches == 0 && out.log.launches.empty())
      say("the application exited without starting CUDA, or the injection library was not "
          "loaded (was CUDA_INJECTION64_PATH overridden?)");
  }
  if (request.stalls && !request.from_records && out.app.exit_code == 0 && !out.app.signal)
    add_stall_run(out, request, options);
  if (out.app.exit_code != 0)
    out.exit_code = out.app.exit_code;
  else if (out.log.error_exit != 0)
    out.exit_code = out.log.error_exit;
  return out;
}

table profile_summary_table(const run& r, const profile_log& log) {
  table t;
  t.id = "profile";
  t.title = "Kernels by GPU time";
  t.columns = {{"kernel", "Kernel"},
               {"launches", "Launches", "", 0},
               {"profiled", "Profiled", "", 0},
               {"total_time_us", "Total", "us", 1},
               {"median_time_us", "Median", "us", 2},
               {"gpu_time_pct", "GPU time", "%", 1},
               {"bound", "Bound"},
               {"pct_of_roof", "% of roof", "%", 1}};
  const auto placements = analyze(r);
  const auto summaries = summarize_kernels(log);
  run by_name; // one kernel per row: labels unique among the rows
  for (const auto& s : summaries)
    by_name.kernels.push_back(kernel_result{.name = s.name});
  const auto labels = kernel_labels(by_name, 96);
  for (std::size_t at = 0; at < summaries.size(); ++at) {
    const auto& s = summaries[at];
    std::vector<cell> row{labels[at],       s.launches,    s.profiled, s.total_s * 1e6,
                          s.median_s * 1e6, s.share * 100, cell{},     cell{}};
    for (std::size_t i = 0; i < r.kernels.size(); ++i)
      if (const auto& n = r.kernels[i].name; n == s.name || n.rfind(s.name + " [grid ", 0) == 0) {
        row[6] = placements[i].bound;
        row[7] = placements[i].pct_of_roof;
        break;
      }
    t.rows.push_back(std::move(row));
  }
  for (const auto& n : log.skipped)
    t.notes.push_back(fmt::format("not profiled ({}): {} x {}", n.reason, n.launches, n.name));
  return t;
}

} // namespace roofkit

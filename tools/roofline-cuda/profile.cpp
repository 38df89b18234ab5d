// roofline-cuda profile: any CUDA application's kernels on the roofline (arguments only).
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <sstream>

#include <fmt/format.h>

#include "cli_help.hpp"
#include "roofkit/app_profile.hpp"
#include "roofkit/core.hpp"
#include "roofkit/plot.hpp"
#include "roofkit/ranks.hpp"
#include "roofkit/results.hpp"
#include "roofs_option.hpp"
#include "subcommand.hpp"

namespace {

struct profile_cli {
  roofkit::app_profile_options options;
  // The modes as given, parsed in run_profile (roofkit's mode tables name a bad value).
  std::string cache_control = roofkit::to_string(roofkit::cache_control::all);
  std::string clock_control = roofkit::to_string(roofkit::clock_control::none);
  std::string profile_from_start = roofkit::to_string(roofkit::profile_start::on);
  std::string sample = roofkit::to_string(roofkit::sample_limit{});
  std::string nvtx_scope = roofkit::to_string(roofkit::nvtx_scope::process);
  bool quiet = false;
  std::string ceilings;
  bool ceilings_any_gpu = false;
  bool stalls = false;
  std::string output;
  std::vector<std::string> plots;
  std::vector<std::string> app;
  std::string records;
  std::string from_records;
};

std::filesystem::path executable_dir() {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path() : self.parent_path();
}

// The per-kernel (and per-range) tables and the launch counts, on stderr.
void print_summary(const roofkit::app_profile_result& res,
                   const std::function<void(const std::string&)>& say) {
  std::ostringstream table;
  auto printer = roofkit::make_printer(roofkit::output_format::markdown, table);
  printer->print(roofkit::profile_summary_table(res.result, res.log));
  const auto ranges = roofkit::summarize_ranges(res.log);
  if (!ranges.empty())
    printer->print(roofkit::range_table(roofkit::range_run(res.result, ranges), ranges));
  printer->finish();
  std::cerr << "\n" << table.str();
  std::int64_t inferred = 0;
  for (const auto& s : roofkit::sampled_shapes(res.log))
    inferred += s.inferred;
  const auto cost = roofkit::profile_cost_of(res.log);
  const auto per_launch_set = roofkit::per_launch_set_of(res.log);
  say(fmt::format(
      "{}{} kernel launches{}, {} profiled ({} replay passes each{}){}{}{}",
      res.log.finished ? "" : "at least ", res.log.total_launches,
      res.log.processes > 1 ? fmt::format(" in {} processes", res.log.processes) : "",
      res.log.launches.size(), res.log.passes,
      per_launch_set.launches == 0 ? ""
                                   : fmt::format(", {} of them with the per-launch set in {}",
                                                 per_launch_set.launches, per_launch_set.passes),
      inferred > 0 ? fmt::format(", {} inferred from their shape's profiled ones", inferred) : "",
      cost.launches == 0
          ? ""
          : fmt::format("; profiler time {:.1f} s: set-up {:.2f} s, then {:.1f} ms "
                        "a profiled launch",
                        cost.total_s(), cost.setup_s, 1e3 * cost.per_launch_after_setup_s()),
      res.log.finished || res.log.device.empty()
          ? ""
          : "; the records end early (the application did not exit normally)"));
  if (const auto note = roofkit::unload_sets_note(res.log); !note.empty())
    say("note: " + note + " (--profile-from-start off, --nvtx RANGE)");
}

// A job whose processes have ranks (torchrun, mpirun, srun): one run file per rank beside the
// output ("run.rank0.json", ...), then, unless this launcher is itself one rank of a job (srun
// starting one profile per task), the merged run at the output.
int write_rank_runs(const profile_cli& o, const roofkit::app_profile_request& req,
                    const roofkit::app_profile_result& res,
                    const std::function<void(const std::string&)>& say) {
  namespace fs = std::filesystem;
  const auto self =
      roofkit::rank_from_environment([](const char* n) -> const char* { return std::getenv(n); });
  fs::path output = o.output;
  fs::path temp;
  if (output.empty()) { // tables only: the files go to a folder removed at the end
    temp = fs::temp_directory_path() / fmt::format("roofkit-ranks-{}", getpid());
    fs::create_directories(temp);
    output = temp / "run.json";
  }
  if (!res.log.launches.empty())
    say(fmt::format("{} launches profiled in processes without a rank are left out of the rank "
                    "runs (see --records)",
                    res.log.launches.size()));
  std::vector<fs::path> files;
  int error_exit = 0;
  std::size_t profiled = 0;
  int with_collectives = 0;
  for (const auto& [rank, text] : res.rank_logs) {
    const auto r = roofkit::build_rank_run(rank, text, res.inputs, req.measured_ceilings, res.log);
    files.push_back(roofkit::rank_run_path(output, rank));
    roofkit::write_text_file(files.back(), r.json);
    say(fmt::format("rank {}: {}{} launches, {} profiled, {} collective launches{}{}", rank,
                    r.log.finished ? "" : "at least ", r.log.total_launches, r.log.launches.size(),
                    r.collectives.size(), r.log.finished ? "" : " (ended early: crashed or killed)",
                    temp.empty() ? "; run written to " + files.back().string() : ""));
    for (const auto& e : r.log.errors)
      say(fmt::format("rank {}: error: {}", rank, e));
    error_exit = std::max(error_exit, r.log.error_exit);
    profiled += r.log.launches.size();
    with_collectives += r.collectives.empty() ? 0 : 1;
  }
  // Ranks that ran collectives: those here, or the whole job when this is one task of several.
  const int job_ranks = with_collectives > 0 && self ? std::max(with_collectives, self->world_size)
                                                     : with_collectives;
  // The ranks of this profile share a peer table when the NCCL call recorder counts their calls.
  const bool coordinated = !(self && self->world_size > 1) && !req.preload_library.empty();
  if (const auto w =
          roofkit::peer_access_warning(job_ranks, std::getenv("NCCL_P2P_DISABLE"), coordinated);
      !w.empty())
    say("warning: " + w);
  // One task of several (srun -n N profile ...): its rank's file only. A launcher whose job has
  // one task (an sbatch script, srun -n 1) merges as usual.
  if (!self || self->world_size <= 1) {
    const auto summary = roofkit::merge_rank_runs(files, output, say);
    std::ostringstream tables;
    auto printer = roofkit::make_printer(roofkit::output_format::markdown, tables);
    for (const auto& t : roofkit::merge_tables(summary))
      printer->print(t);
    printer->finish();
    std::cerr << "\n" << tables.str();
    if (temp.empty())
      say("merged run of " + std::to_string(files.size()) + " ranks written to " + o.output);
    if (!o.plots.empty()) {
      const auto merged = roofkit::load_run(output);
      for (const auto& p : o.plots) {
        roofkit::write_roofline_chart(merged, p, roofkit::chart_format_for_path(p));
        say("chart written to " + p);
      }
    }
  } else {
    say(fmt::format("this launcher is rank {} of a job ({}): merge the ranks' files with "
                    "roofline-cuda merge",
                    self->rank, self->source));
  }
  if (!temp.empty())
    fs::remove_all(temp);
  // A rank whose profiler could not start (another rank holds its GPU's) is said above; the
  // exit code tells it only when no rank was profiled.
  if (res.exit_code != 0)
    return res.exit_code;
  if (profiled == 0) {
    const int code =
        error_exit != 0 ? error_exit : static_cast<int>(roofkit::exit_code::none_profiled);
    say(fmt::format("no launch was profiled in any rank (exit {})", code));
    return code;
  }
  return 0;
}

int run_profile(const profile_cli& o) {
  // Fail on bad output paths before the application runs.
  std::vector<roofkit::chart_format> formats;
  for (const auto& p : o.plots)
    formats.push_back(roofkit::chart_format_for_path(p));
  std::vector<std::string> outputs = o.plots;
  outputs.push_back(o.output);
  for (const auto& path : outputs) {
    const auto dir = std::filesystem::path(path).parent_path();
    if (!path.empty() && !dir.empty() && !std::filesystem::is_directory(dir))
      throw roofkit::usage_error("cannot write '" + path + "': folder '" + dir.string() +
                                 "' does not exist");
  }
  auto say = [](const std::string& s) { std::cerr << "roofline-cuda profile: " << s << '\n'; };

  roofkit::app_profile_request req;
  req.options = o.options;
  req.options.cache = roofkit::parse_cache_control(o.cache_control);
  req.options.clock = roofkit::parse_clock_control(o.clock_control);
  req.options.from_start = roofkit::parse_profile_start(o.profile_from_start);
  req.options.sample = roofkit::parse_sample_limit(o.sample);
  req.options.nvtx_rule = roofkit::parse_nvtx_scope(o.nvtx_scope);
  req.options.progress = !o.quiet && roofkit::stderr_is_terminal();
  roofkit::parse_replay_batch(o.options.replay_batch);
  req.argv = o.app;
  // Roofs: a run file's as they are; otherwise chosen (and measured, once per GPU) before the
  // application runs. Rebuilt from records or without a GPU, none is measured.
  roofkit::chosen_roofs roofs;
  if (!o.ceilings.empty() && o.ceilings != "theoretical" && !roofkit::is_machine_file(o.ceilings))
    req.ceilings_file = o.ceilings;
  else if (!o.ceilings.empty() ||
           (o.from_records.empty() && !o.app.empty() && roofkit::visible_device_count() > 0))
    roofs = roofkit::cli::roofs_for_run(o.ceilings, o.ceilings_any_gpu, 0,
                                        roofkit::stderr_is_terminal());
  req.measured_ceilings = roofs.measured;
  req.command = roofkit::cli::command_line();
  req.say = say;
  req.records_file = o.from_records.empty() ? o.records : o.from_records;
  req.from_records = !o.from_records.empty();
  req.stalls = o.stalls;
  if (const char* lib = std::getenv("ROOFKIT_INJECT_LIBRARY"))
    req.inject_library = lib;
  const auto dir = executable_dir();
#ifdef ROOFKIT_INJECT_INSTALL_SUBDIR
  req.inject_candidates.push_back(dir / ".." / ROOFKIT_INJECT_INSTALL_SUBDIR /
                                  "libroofkit_inject.so");
#endif
#ifdef ROOFKIT_INJECT_BUILD_PATH
  req.inject_candidates.emplace_back(ROOFKIT_INJECT_BUILD_PATH);
#endif
  req.inject_candidates.push_back(dir / "libroofkit_inject.so");
  // The NCCL call recorder, beside the injection library, unless ROOFKIT_NCCL_SHIM=0.
  const char* shim_env = std::getenv("ROOFKIT_NCCL_SHIM");
  if (!o.app.empty() && !(shim_env && std::string(shim_env) == "0")) {
    try {
      const auto inject = roofkit::find_inject_library(req.inject_library, req.inject_candidates);
      if (const auto shim = inject.parent_path() / "libroofkit_nccl.so";
          std::filesystem::exists(shim))
        req.preload_library = shim.string();
    } catch (const roofkit::error&) { // no injection library: profile_application says so
    }
  }

  if (o.app.empty() && o.from_records.empty())
    throw roofkit::usage_error("no application given: put its command line after '--' "
                               "(roofline-cuda profile [options] -- ./app args...)");
  auto res = roofkit::profile_application(req);
  if (!res.rank_logs.empty())
    return write_rank_runs(o, req, res, say);
  roofkit::cli::note_roofs(res.result, roofs);
  for (std::size_t i = 0; i < res.log.errors.size(); ++i)
    say("error: " + res.log.errors[i] +
        (res.log.hints[i].empty() ? "" : " (" + res.log.hints[i] + ")"));

  print_summary(res, say);
  if (res.log.launches.empty()) { // never a run labelled measured that measured nothing
    const int code =
        res.exit_code != 0 ? res.exit_code : static_cast<int>(roofkit::exit_code::none_profiled);
    say(fmt::format("no launch was profiled{}: no run or chart written (exit {})",
                    res.log.total_launches > 0
                        ? fmt::format(" of the {} the application made", res.log.total_launches)
                        : "",
                    code));
    return code;
  }
  if (!o.output.empty()) {
    roofkit::write_text_file(o.output, roofkit::profile_run_json(res.result, res.log, res.inputs));
    say("run written to " + o.output);
  }
  if (!o.plots.empty()) {
    const auto top = roofkit::top_kernels_run(res.result, res.log);
    for (std::size_t i = 0; i < o.plots.size(); ++i) {
      roofkit::write_roofline_chart(top, o.plots[i], formats[i]);
      say("chart written to " + o.plots[i]);
    }
  }
  return res.exit_code;
}

const roofkit::cli::registration profile_registration{
    "profile", 52, [](CLI::App& app) -> std::function<int()> {
      auto* cmd = app.add_subcommand(
          "profile", "Run a CUDA application and place its kernels on the roofline");
      if (auto doc = roofkit::cli::help_page("docs/cli/roofline-cuda-profile.md"))
        cmd->footer(std::string(*doc));
      auto o = std::make_shared<profile_cli>();
      cmd->add_option("--kernel", o->options.kernel_regex,
                      "Only kernels whose demangled name matches this regex");
      cmd->add_option("--nvtx", o->options.nvtx_range,
                      "Only launches inside an NVTX push/pop range of this name");
      cmd->add_option("--nvtx-scope", o->nvtx_scope,
                      "process: a range open on any thread selects every thread's launches "
                      "(PyTorch runs backward on its own thread); thread: only the pushing "
                      "thread's, as Nsight Compute (default process)");
      cmd->add_flag("--nvtx-groups", o->options.nvtx_groups,
                    "Follow NVTX ranges and group the report by range (on with --nvtx)");
      cmd->add_option("--sample", o->sample,
                      "Launches of each shape (kernel, grid, block, dynamic shared memory) "
                      "profiled with counters, 1 to 1000000 or all; every launch is timed. "
                      "Default 1: a training loop repeats its shapes every step, so one "
                      "measured launch gives each shape's work, and each further one costs a "
                      "replay per shape (a long run's profiler time is mostly these); the "
                      "spread of a shape's GPU time over all its launches comes from the "
                      "timing. 2 or more also show how counts vary between launches of a shape");
      auto* stalls =
          cmd->add_flag("--stalls", o->stalls,
                        "Run the application once more under warp-stall (PC) sampling: each "
                        "kernel's diagnosis names where its warps wait");
      cmd->add_flag("-q,--quiet", o->quiet, "No progress line on stderr");
      cmd->add_option("--launch-skip", o->options.launch_skip,
                      "Matching launches to let run before profiling starts");
      cmd->add_option("--launch-count", o->options.launch_count,
                      "Matching launches to profile at most (default: all)");
      cmd->add_option("--cache-control", o->cache_control,
                      "all: flush the L2 before every replay pass of the cache-dependent counters; "
                      "none: leave it (default all)");
      cmd->add_option("--clock-control", o->clock_control,
                      "base or none (default none; see the help page)");
      cmd->add_option("--profile-from-start", o->profile_from_start,
                      "on, or off: only launches between the application's cudaProfilerStart "
                      "and cudaProfilerStop (default on)");
      cmd->add_option("--replay-batch", o->options.replay_batch,
                      "Selected launches replayed together in one set of passes, after they "
                      "ran (1 to 1024; 1: each launch alone, before it runs; default 128: a set of "
                      "passes costs some 100 ms whatever it holds)");
      cmd->add_option("--ceilings", o->ceilings,
                      std::string(roofkit::cli::ceilings_option_help) + ", or a run file");
      cmd->add_flag("--ceilings-any-gpu", o->ceilings_any_gpu, roofkit::cli::ceilings_any_gpu_help);
      cmd->add_option("-o,--output", o->output, "Write the run (roofkit.run/1 JSON) to this file");
      // One file per --plot: a vector option that takes several values stops at "--" but
      // leaves the application's own options to be parsed as roofline-cuda's (CLI11 2.1).
      cmd->add_option("--plot", o->plots,
                      "Write the roofline chart of the kernels with most GPU time (.svg, "
                      ".html, ...); may be given several times")
          ->allow_extra_args(false);
      cmd->add_option("--records", o->records,
                      "Keep the injection library's record log (JSON lines) in this file");
      auto* from = cmd->add_option("--from-records", o->from_records,
                                   "Build the run from a kept record log; runs no application");
      auto* command =
          cmd->add_option("command", o->app, "The application and its arguments, after --");
      from->excludes(command);
      from->excludes(stalls);
      return [o] { return run_profile(*o); };
    }};

} // namespace

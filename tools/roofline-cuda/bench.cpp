// roofline-cuda bench: verify, time, profile and place the bundled kernels (arguments only).
#include <iostream>
#include <map>

#include <fmt/format.h>

#include "cli_errors.hpp"
#include "cli_help.hpp"
#include "roofkit/bench.hpp"
#include "roofkit/core.hpp"
#include "roofkit/plot.hpp"
#include "roofkit/results.hpp"
#include "roofs_option.hpp"
#include "subcommand.hpp"
#include "suite/claims_markdown.hpp"

namespace {

struct bench_cli {
  std::string kernel;
  std::int64_t size = 0;
  bool size_given = false;
  int reps = 20;
  int warmup = 3;
  int device = 0;
  bool cold = false;
  bool warm = false;
  // The modes as given, parsed in run_bench_command (roofkit's mode tables name a bad value).
  std::string cache_control = roofkit::to_string(roofkit::cache_control::all);
  std::string clock_control = roofkit::to_string(roofkit::clock_control::none);
  bool no_counters = false;
  bool no_ceilings = false;
  std::string machine_file;
  bool ceilings_any_gpu = false;
  bool quiet = false;
  bool json = false;
  bool csv = false;
  std::string output;
  std::vector<std::string> plots;
  std::string claims;
  std::string claims_notes;
};

int run_bench_command(const bench_cli& o, const std::string& command) {
  // Fail on bad output paths before spending GPU time.
  std::vector<roofkit::chart_format> formats;
  for (const auto& p : o.plots)
    formats.push_back(roofkit::chart_format_for_path(p));

  const auto notes = o.claims_notes.empty() ? std::map<std::string, std::string>{}
                                            : roofkit::load_claim_notes(o.claims_notes);
  roofkit::bench_options opts;
  opts.kernel_regex = o.kernel;
  if (o.size_given)
    opts.size = o.size;
  opts.repetitions = o.reps;
  opts.warmup = o.warmup;
  opts.cache = roofkit::parse_cache_control(o.cache_control);
  opts.clock = roofkit::parse_clock_control(o.clock_control);
  // Timing follows cache control unless told otherwise: cold with `all`, warm with `none`.
  opts.flush_l2 = o.cold || (!o.warm && opts.cache == roofkit::cache_control::all);
  opts.counters = !o.no_counters;
  roofkit::cli::for_flag("--kernel", [&] { return roofkit::select_kernels(o.kernel); });
  // Without a GPU, run_bench says so (exit 3) before any roof is chosen.
  const auto roofs = roofkit::visible_device_count() == 0
                         ? roofkit::chosen_roofs{}
                         : roofkit::cli::roofs_for_run(
                               o.no_ceilings ? "theoretical" : o.machine_file, o.ceilings_any_gpu,
                               o.device, !o.quiet && roofkit::stderr_is_terminal());
  opts.measure_ceilings = false;
  opts.machine_ceilings = roofs.measured;
  opts.device = o.device;
  opts.command = command;
  roofkit::progress_bar bar(!o.quiet && roofkit::stderr_is_terminal());
  opts.progress = [&](const roofkit::bench_progress& p) {
    bar.update(p.index, p.total, p.kernel + " (" + p.stage + ")");
  };
  opts.warn = [&](const std::string& s) {
    bar.finish();
    std::cerr << "roofline-cuda: warning: " << s << '\n';
  };
  auto outcome = roofkit::cli::hint_if_none(
      roofkit::exit_code::no_device,
      "to see a recorded H100 run instead: roofline-cuda report data/runs/h100-sxm.json",
      [&] { return roofkit::run_bench(opts); });
  bar.finish();
  roofkit::cli::note_roofs(outcome.result, roofs);
  if (roofs.result)
    outcome.measured = *roofs.result;
  const auto& r = outcome.result;
  const auto placements = roofkit::analyze(r);

  const auto format = o.json  ? roofkit::output_format::json
                      : o.csv ? roofkit::output_format::csv
                              : roofkit::output_format::markdown;
  if (format == roofkit::output_format::markdown) {
    std::cout << "# roofline-cuda bench on " << r.context.device_name << "\n\n"
              << roofkit::provenance_line(r) << ". " << roofkit::clocks_line(r) << ".\n\n"
              << "Roofs: " << roofs.note << ".\n\n";
    if (outcome.counters_used)
      std::cout << fmt::format("Counters: CUPTI range profiler, {} replay passes per kernel (the "
                               "roofline set with the coalescing and claim counters), cache "
                               "control {}. {}. Timing: {}.\n\n",
                               outcome.passes, roofkit::to_string(opts.cache), outcome.clock_note,
                               opts.flush_l2 ? "cold" : "warm");
    else if (o.no_counters)
      std::cout << "Counters: turned off (--no-counters). Kernels are placed in analytical mode: "
                   "declared FLOPs and minimal bytes with measured times.\n\n";
    else
      std::cout << "Counters: NOT AVAILABLE (" << outcome.counters_note
                << "). TIMING ONLY: kernels are verified and timed but not placed; "
                   "--no-counters places declared FLOPs and bytes instead.\n\n";
  }
  if (format == roofkit::output_format::json) {
    // The run itself (roofkit.run/1), the same document as -o writes: every value the table
    // shows and the raw counters beside them, under a versioned schema.
    std::cout << roofkit::to_json_text(r);
  } else {
    auto printer = roofkit::make_printer(format, std::cout);
    printer->print(roofkit::bench_table(r, placements));
    if (format == roofkit::output_format::markdown) {
      if (!outcome.measured.measurements.empty())
        printer->print(roofkit::measured_ceilings_table(outcome.measured));
      printer->print(roofkit::claims_table(roofkit::evaluate_claims(r)));
    }
    printer->finish();
  }

  if (!o.output.empty())
    roofkit::save_run(o.output, r);
  for (std::size_t i = 0; i < o.plots.size(); ++i)
    roofkit::write_roofline_chart(r, o.plots[i], formats[i]);
  if (!o.claims.empty())
    roofkit::write_text_file(
        o.claims, roofkit::kernels::claims_markdown(r, roofkit::evaluate_claims(r),
                                                    o.output.empty() ? "(not saved)" : o.output,
                                                    command, notes, o.claims_notes));
  if (outcome.counters_exit != 0) {
    std::cerr << "roofline-cuda: error: counters unavailable: " << outcome.counters_note
              << "; the timing-only results were kept\n";
    return outcome.counters_exit;
  }
  if (outcome.failed > 0) {
    std::cerr << fmt::format("roofline-cuda: error: {} kernel(s) failed verification or "
                             "errored; they are marked failed in the run\n",
                             outcome.failed);
    return 1;
  }
  return 0;
}

const roofkit::cli::registration bench_registration{
    "bench", 50, [](CLI::App& app) -> std::function<int()> {
      auto* cmd = app.add_subcommand(
          "bench", "Verify, time, profile and place the bundled kernels on the roofline");
      if (auto doc = roofkit::cli::help_page("docs/cli/roofline-cuda-bench.md"))
        cmd->footer(std::string(*doc));
      auto o = std::make_shared<bench_cli>();
      cmd->add_option("--kernel", o->kernel, "Only kernels whose name matches this regex");
      cmd->add_option("--size", o->size,
                      "Problem size for every selected kernel (default: each "
                      "kernel's own; see `list` for units)")
          ->each([o](const std::string&) { o->size_given = true; });
      cmd->add_option("--reps", o->reps, "Timed repetitions per kernel (median reported)")
          ->check(CLI::Range(1, 100000));
      cmd->add_option("--warmup", o->warmup, "Untimed launches before timing")
          ->check(CLI::Range(0, 1000));
      cmd->add_option("--device", o->device, "CUDA device ordinal");
      cmd->add_option("--cache-control", o->cache_control,
                      "Profiled passes of the cache-dependent counters start from an L2 written "
                      "back and invalidated (all, default) or as the previous work left it (none)");
      cmd->add_option("--clock-control", o->clock_control,
                      "none (default): each kernel's roofs at the SM clock it ran at; base: lock "
                      "the SM clock to the base clock (needs permission)");
      auto* cold = cmd->add_flag("--cold,--flush-l2", o->cold,
                                 "Time each launch after an L2 write-back and invalidate (the "
                                 "default with --cache-control all)");
      auto* warm = cmd->add_flag("--warm", o->warm,
                                 "Time back-to-back launches with warm caches (the default with "
                                 "--cache-control none)");
      cold->excludes(warm);
      cmd->add_flag("--no-counters", o->no_counters,
                    "Do not collect CUPTI counters (analytical mode: declared FLOPs and bytes)");
      auto* no_ceilings = cmd->add_flag("--no-ceilings", o->no_ceilings,
                                        "Theoretical roofs only (as --ceilings theoretical)");
      cmd->add_option("--ceilings", o->machine_file, roofkit::cli::ceilings_option_help)
          ->excludes(no_ceilings);
      cmd->add_flag("--ceilings-any-gpu", o->ceilings_any_gpu, roofkit::cli::ceilings_any_gpu_help);
      cmd->add_flag("-q,--quiet", o->quiet, "No progress bar");
      auto* json = cmd->add_flag("--json", o->json,
                                 "Print the run as JSON (roofkit.run/1, as -o writes it)");
      auto* csv = cmd->add_flag("--csv", o->csv, "Print the table as CSV");
      json->excludes(csv);
      cmd->add_option("-o,--output", o->output, "Write the run (roofkit.run/1 JSON) to this file");
      cmd->add_option("--plot", o->plots,
                      "Write the roofline chart (.svg, .html, .png, .pdf); "
                      "may be given several times");
      cmd->add_option("--claims", o->claims, "Write the seed-claims Markdown to this file");
      cmd->add_option("--claims-notes", o->claims_notes,
                      "With --claims: a JSON object of claim id -> explanation to include");
      return [o] { return run_bench_command(*o, roofkit::cli::command_line()); };
    }};

} // namespace

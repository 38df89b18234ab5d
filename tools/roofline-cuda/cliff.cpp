// roofline-cuda cliff: sweeps a launch parameter of a bundled kernel (or of the user's program)
// and sets the predicted occupancy steps against the measured changes (arguments only).
#include <iostream>

#include <fmt/format.h>

#include "cli_errors.hpp"
#include "cli_help.hpp"
#include "roofkit/arch.hpp"
#include "roofkit/cliff.hpp"
#include "roofkit/core.hpp"
#include "roofkit/occupancy.hpp"
#include "roofkit/plot.hpp"
#include "roofkit/registry.hpp"
#include "subcommand.hpp"

namespace {

struct cliff_cli {
  std::string kernel, from, exec;
  std::string sweep, range;
  std::string size;
  int reps = 20, warmup = 3, device = 0;
  std::string threshold = "5";
  double spread_factor = 2.0;
  bool flush_l2 = false, no_counters = false, quiet = false, json = false, csv = false;
  std::string ptxas, output, markdown;
  std::vector<std::string> plots;
  // --exec
  std::string metric_regex, metric_unit;
  int block = 256, regs = 0;
  std::string static_smem = "0", dynamic_smem = "0", arch = "sm_90";
  int sms = 0;
};

using progress_fn = std::function<void(std::size_t, std::size_t, std::int64_t)>;
using warn_fn = std::function<void(const std::string&)>;

roofkit::cliff_options detection_of(const cliff_cli& o) {
  roofkit::cliff_options detection;
  detection.threshold = roofkit::parse_threshold_percent(o.threshold);
  if (!(o.spread_factor >= 0) || o.spread_factor > 100)
    throw roofkit::usage_error(
        fmt::format("--spread-factor {} is out of range (valid: 0..100)", o.spread_factor));
  detection.spread_factor = o.spread_factor;
  return detection;
}

// --from: a saved sweep, analysed again when the detection options are given.
roofkit::cliff_result replay(const cliff_cli& o, CLI::App* cmd,
                             const roofkit::cliff_options& detection) {
  if (!o.sweep.empty() || !o.range.empty())
    throw roofkit::usage_error("--from replays a saved sweep: --sweep and --range do not apply");
  auto r = roofkit::load_cliff(o.from);
  if (cmd->count("--threshold") || cmd->count("--spread-factor")) {
    r.options = detection;
    roofkit::analyze_cliffs(r);
  }
  return r;
}

// --exec: the user's program.
roofkit::cliff_result sweep_program(const cliff_cli& o, CLI::App* cmd, roofkit::sweep_axis axis,
                                    const std::optional<roofkit::sweep_range>& range,
                                    const roofkit::cliff_options& detection,
                                    const std::string& command, const progress_fn& progress) {
  roofkit::exec_sweep_options e;
  e.command = o.exec;
  e.axis = axis;
  if (!range)
    throw roofkit::usage_error("--exec needs --range (e.g. --range 64:1024:64)");
  e.range = *range;
  e.repetitions = cmd->count("--reps") ? o.reps : 5;
  e.metric_regex = o.metric_regex;
  if (!o.metric_unit.empty()) {
    if (o.metric_regex.empty())
      throw roofkit::usage_error("--metric-unit needs --metric-regex");
    if (auto s = roofkit::time_unit_seconds(o.metric_unit)) {
      e.metric_scale = *s;
    } else {
      e.metric_is_rate = true;
      e.metric_unit = o.metric_unit;
    }
  }
  e.block = o.block;
  e.registers = o.regs;
  e.static_smem = roofkit::parse_size(o.static_smem, "--static-smem");
  e.dynamic_smem = roofkit::parse_size(o.dynamic_smem, "--dyn-smem");
  const auto& arch = roofkit::find_arch(o.arch);
  e.cc_major = arch.cc_major;
  e.cc_minor = arch.cc_minor;
  e.sm_count = o.sms;
  e.detection = detection;
  e.progress = progress;
  auto r = roofkit::run_exec_sweep(e);
  r.command = command;
  r.extra["program"] = o.exec;
  return r;
}

// --kernel: a bundled kernel, on the GPU.
roofkit::cliff_result sweep_kernel(const cliff_cli& o, CLI::App* cmd, roofkit::sweep_axis axis,
                                   const std::optional<roofkit::sweep_range>& range,
                                   const roofkit::cliff_options& detection,
                                   const std::string& command, const progress_fn& progress,
                                   const warn_fn& warn) {
  if (!roofkit::find_kernel(o.kernel))
    throw roofkit::usage_error(fmt::format("kernel '{}' is not registered (see roofline-cuda "
                                           "list; sweepable: cliff/triad, cliff/chase, "
                                           "cliff/fma, cliff/fold-cap)",
                                           o.kernel));
  roofkit::cliff_options_run ro;
  ro.kernel = o.kernel;
  ro.axis = axis;
  ro.range = range;
  if (cmd->count("--size")) {
    if (axis == roofkit::sweep_axis::size)
      throw roofkit::usage_error("--size fixes the problem size: it cannot go with --sweep "
                                 "size");
    ro.size = roofkit::parse_count(o.size, "--size");
  }
  ro.repetitions = o.reps;
  ro.warmup = o.warmup;
  ro.counters = !o.no_counters;
  ro.flush_l2 = o.flush_l2;
  ro.ptxas_log = o.ptxas;
  ro.detection = detection;
  ro.device = o.device;
  ro.command = command;
  ro.progress = progress;
  ro.warn = warn;
  return roofkit::cli::hint_if_none(
      roofkit::exit_code::no_device,
      "to see a recorded sweep instead: roofline-cuda cliff --from data/cliffs/<file>.json",
      [&] { return roofkit::run_cliff_sweep(ro); });
}

// The tables on stdout, the files asked for; 1 when a point failed or errored.
int report(const cliff_cli& o, const roofkit::cliff_result& r) {
  const auto format = o.json  ? roofkit::output_format::json
                      : o.csv ? roofkit::output_format::csv
                              : roofkit::output_format::markdown;
  const std::string source = !o.from.empty()     ? o.from
                             : !o.output.empty() ? o.output
                                                 : "(not saved)";
  if (format == roofkit::output_format::markdown) {
    std::cout << roofkit::cliff_markdown(r, source);
  } else {
    auto printer = roofkit::make_printer(format, std::cout);
    printer->print(roofkit::cliff_events_table(r));
    printer->print(roofkit::cliff_points_table(r));
    printer->finish();
  }
  if (!o.output.empty())
    roofkit::write_text_file(o.output, roofkit::to_json_text(r));
  for (const auto& p : o.plots)
    roofkit::write_cliff_chart(r, p);
  if (!o.markdown.empty())
    roofkit::write_text_file(o.markdown, roofkit::cliff_markdown(r, source));
  std::size_t failed = 0, errors = 0;
  for (const auto& p : r.points) {
    failed += p.status == "failed";
    errors += p.status == "error";
  }
  if (failed + errors > 0) {
    std::cerr << fmt::format("roofline-cuda: error: {} point(s) failed verification and {} "
                             "errored; they are marked in the results\n",
                             failed, errors);
    return 1;
  }
  return 0;
}

int run_cliff(const cliff_cli& o, CLI::App* cmd) {
  const int sources = !o.kernel.empty() + !o.from.empty() + !o.exec.empty();
  if (sources != 1)
    throw roofkit::usage_error("cliff needs exactly one of --kernel NAME, --exec 'CMD {}' or "
                               "--from cliff.json");
  for (const auto& p : o.plots) // fail on bad output paths before spending GPU time
    roofkit::chart_format_for_path(p);
  const roofkit::cliff_options detection = detection_of(o);
  const std::string command = roofkit::cli::command_line();

  roofkit::progress_bar bar(!o.quiet && roofkit::stderr_is_terminal());
  const progress_fn progress = [&](std::size_t done, std::size_t total, std::int64_t value) {
    bar.update(done, total, fmt::format("{} = {}", o.sweep, value));
  };
  const warn_fn warn = [&](const std::string& s) {
    bar.finish();
    std::cerr << "roofline-cuda: warning: " << s << '\n';
  };

  roofkit::cliff_result r;
  if (!o.from.empty()) {
    r = replay(o, cmd, detection);
  } else {
    if (o.sweep.empty())
      throw roofkit::usage_error("--sweep is required (valid: block, smem, regs, size)");
    const auto axis = roofkit::parse_sweep_axis(o.sweep);
    std::optional<roofkit::sweep_range> range;
    if (!o.range.empty())
      range = roofkit::parse_sweep_range(o.range, axis);
    r = !o.exec.empty() ? sweep_program(o, cmd, axis, range, detection, command, progress)
                        : sweep_kernel(o, cmd, axis, range, detection, command, progress, warn);
  }
  bar.finish();
  return report(o, r);
}

const roofkit::cli::registration cliff_registration{
    "cliff", 56, [](CLI::App& app) -> std::function<int()> {
      auto* cmd = app.add_subcommand(
          "cliff", "Sweep a launch parameter: predicted occupancy steps against measured time");
      if (auto doc = roofkit::cli::help_page("docs/cli/roofline-cuda-cliff.md"))
        cmd->footer(std::string(*doc));
      auto o = std::make_shared<cliff_cli>();
      cmd->add_option("--kernel", o->kernel, "A bundled kernel (exact name, see `list`)");
      cmd->add_option("--exec", o->exec,
                      "Your program's command line, with {} where the swept value goes");
      cmd->add_option("--from", o->from, "Replay a saved sweep (cliff JSON): tables and charts");
      cmd->add_option("--sweep", o->sweep, "What to sweep: block, smem, regs or size");
      cmd->add_option("--range", o->range, "first:last:step or first:last:xFACTOR (K/M/G allowed)");
      cmd->add_option("--size", o->size,
                      "Problem size for block/smem/regs sweeps (K/M/G suffixes)");
      cmd->add_option("--reps", o->reps, "Timed repetitions per point (median reported)");
      cmd->add_option("--warmup", o->warmup, "Untimed launches before timing");
      cmd->add_option("--threshold", o->threshold,
                      "Smallest change that counts, in percent (default 5)");
      cmd->add_option("--spread-factor", o->spread_factor,
                      "A change must also exceed this many run-to-run spreads (default 2)");
      cmd->add_flag("--flush-l2", o->flush_l2, "Evict the L2 before every timed repetition");
      cmd->add_flag("--no-counters", o->no_counters, "Do not collect achieved occupancy");
      cmd->add_option("--ptxas", o->ptxas,
                      "The `nvcc -Xptxas -v` log of the kernel: spill bytes per variant");
      cmd->add_option("--device", o->device, "CUDA device ordinal");
      cmd->add_option("-o,--output", o->output, "Write the sweep (roofkit.cliff/1 JSON)");
      cmd->add_option("--plot", o->plots, "Write the cliff chart (.svg, .html, .png, .pdf)");
      cmd->add_option("--markdown", o->markdown, "Write the findings tables as Markdown");
      cmd->add_option("--metric-regex", o->metric_regex,
                      "--exec: regex whose first group is the program's own time or rate");
      cmd->add_option("--metric-unit", o->metric_unit,
                      "--exec: unit of that figure: s, ms, us, ns (a time) or any rate unit");
      cmd->add_option("--block", o->block, "--exec: threads per block when not swept");
      cmd->add_option("--regs", o->regs, "--exec: registers per thread of your kernel (ptxas -v)");
      cmd->add_option("--static-smem", o->static_smem, "--exec: static shared memory per block");
      cmd->add_option("--dyn-smem", o->dynamic_smem,
                      "--exec: dynamic shared memory per block when not swept");
      cmd->add_option("--arch", o->arch, "--exec: architecture of the prediction (e.g. sm_90)");
      cmd->add_option("--sms", o->sms, "--exec: SM count (for the record)");
      cmd->add_flag("-q,--quiet", o->quiet, "No progress bar");
      auto* json = cmd->add_flag("--json", o->json, "Print the tables as JSON");
      auto* csv = cmd->add_flag("--csv", o->csv, "Print the tables as CSV");
      json->excludes(csv);
      return [o, cmd] { return run_cliff(*o, cmd); };
    }};

} // namespace

// roofline-cuda plot: roofline charts of a saved run (SVG, HTML, PNG, PDF, terminal), of an
// Nsight Compute CSV export, and before/after charts of two runs.
#include <functional>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "cli_help.hpp"
#include "roofkit/ceilings.hpp"
#include "roofkit/core.hpp"
#include "roofkit/ncu_import.hpp"
#include "roofkit/plot.hpp"
#include "roofkit/results.hpp"
#include "subcommand.hpp"

namespace {

struct plot_args {
  std::string run_file;
  std::string ncu_csv;
  std::string before;
  std::string after;
  std::string output;
  std::string format;
  std::string save_run;
  std::string machine_file;
  bool ceilings_any_gpu = false;
  bool term = false;
  std::string color = "auto";
  int columns = 80;
  int rows = 20;
  std::string title;
  std::vector<std::string> levels;
  std::string arrow_level = "dram";
  bool all_roofs = false;
  bool recorded = false;
  std::string kernel;
  int top = 0;
  std::string label;
  std::string colour_by = "auto";
  bool bandwidth = false;
  bool ncu_half_scalar = false;
  double width = 1000;
  double height = 660;
};

std::vector<roofkit::memory_level> parse_levels(const std::vector<std::string>& names) {
  std::vector<roofkit::memory_level> out;
  for (const auto& n : names) {
    const auto l = roofkit::parse_memory_level(n);
    if (!l)
      throw roofkit::usage_error("unknown memory level '" + n + "' (valid: dram, l2, l1)");
    out.push_back(*l);
  }
  return out;
}

// --ceilings FILE over a run: its measured roofs, refused when measured on another GPU than the
// run's unless --ceilings-any-gpu (then one warning and a note in the run).
void apply_machine_file(roofkit::run& r, const plot_args& a) {
  roofkit::gpu_identity gpu;
  gpu.name = r.context.device_name;
  std::string accepted;
  const auto m = roofkit::load_machine_file_for(a.machine_file, gpu, a.ceilings_any_gpu, &accepted);
  if (!accepted.empty())
    std::cerr << "roofline-cuda: warning: " << accepted << " (--ceilings-any-gpu)\n";
  roofkit::apply_measured_ceilings(r.ceilings, m.ceilings);
  r.context.extra["roofs"] = "measured roofs from machine file '" + a.machine_file +
                             "', measured " + (m.date.empty() ? "at an unrecorded date" : m.date) +
                             (accepted.empty() ? "" : "; " + accepted);
}

// The inputs: exactly one of a run file, an ncu export or a before/after pair; sizes in range.
void check_inputs(const plot_args& a) {
  using namespace roofkit;
  const bool compare = !a.before.empty() || !a.after.empty();
  const int inputs = (a.run_file.empty() ? 0 : 1) + (a.ncu_csv.empty() ? 0 : 1) + (compare ? 1 : 0);
  if (inputs == 0 && !a.machine_file.empty())
    throw usage_error("--ceilings '" + a.machine_file +
                      "' gives the roofs; plot needs a run to "
                      "place under them: roofline-cuda plot RUN.json --ceilings " +
                      a.machine_file);
  if (a.ceilings_any_gpu && a.machine_file.empty())
    throw usage_error("--ceilings-any-gpu applies to a machine file: give --ceilings FILE");
  if (inputs == 0)
    throw usage_error("nothing to plot: give a run file, --import-ncu FILE.csv, or --before "
                      "A.json --after B.json");
  if (inputs > 1)
    throw usage_error("give one input: a run file, --import-ncu FILE.csv, or --before/--after");
  if (compare && (a.before.empty() || a.after.empty()))
    throw usage_error(std::string("--before and --after go together: '") +
                      (a.before.empty() ? "--before" : "--after") + "' is missing");
  if (!a.save_run.empty() && a.ncu_csv.empty())
    throw usage_error("--save-run '" + a.save_run +
                      "' saves an imported run (use it with --import-ncu)");
  if (a.columns < 60 || a.columns > 400)
    throw usage_error("--columns '" + std::to_string(a.columns) +
                      "' is out of range (valid: 60-400)");
  if (a.rows < 10 || a.rows > 200)
    throw usage_error("--rows '" + std::to_string(a.rows) + "' is out of range (valid: 10-200)");
  if (a.width < 600 || a.width > 4000 || a.height < 400 || a.height > 4000)
    throw usage_error("chart size " + std::to_string(static_cast<int>(a.width)) + "x" +
                      std::to_string(static_cast<int>(a.height)) +
                      " is out of range (valid: width 600-4000, height 400-4000)");
}

roofkit::chart_options chart_options_of(const plot_args& a) {
  using namespace roofkit;
  chart_options options;
  options.title = a.title;
  options.width = a.width;
  options.height = a.height;
  options.all_roofs = a.all_roofs;
  options.levels = parse_levels(a.levels);
  options.recorded = a.recorded;
  options.label_regex = a.label;
  options.colouring = a.colour_by == "topic"    ? chart_colouring::topic
                      : a.colour_by == "kernel" ? chart_colouring::kernel
                                                : chart_colouring::automatic;

  return options;
}

// The before/after chart of two runs, to a file.
int plot_compare(const plot_args& a, const roofkit::chart_options& options,
                 roofkit::chart_format file_format, bool term, bool to_file) {
  using namespace roofkit;
  if (term && !to_file)
    throw usage_error("the before/after chart has no terminal form: give -o FILE.svg (or "
                      ".html, .png, .pdf); 'roofline-cuda compare' prints the table");
  const auto level = parse_memory_level(a.arrow_level);
  if (!level)
    throw usage_error("unknown memory level '" + a.arrow_level + "' (valid: dram, l2, l1)");
  run before = load_run(a.before);
  run after = load_run(a.after);
  if (!a.machine_file.empty()) {
    apply_machine_file(before, a);
    apply_machine_file(after, a);
  }
  compare_chart_options co;
  co.chart = options;
  co.level = *level;
  write_compare_chart(before, after, a.output, file_format, co);
  return 0;
}

int run_plot(const plot_args& a) {
  using namespace roofkit;
  check_inputs(a);
  const bool compare = !a.before.empty() || !a.after.empty();
  const chart_options options = chart_options_of(a);
  std::optional<chart_format> format;
  if (!a.format.empty()) {
    format = parse_chart_format(a.format);
    if (!format)
      throw usage_error("unknown chart format '" + a.format +
                        "' (valid: svg, html, png, pdf, term)");
  }
  const bool to_file = !a.output.empty();
  if (format && *format == chart_format::terminal && to_file)
    throw usage_error("--format term writes to stdout; drop -o '" + a.output + "' or use --term");
  const chart_format file_format =
      to_file ? (format ? *format : chart_format_for_path(a.output)) : chart_format::svg;
  const bool term = a.term || !to_file;

  if (compare && a.bandwidth)
    throw usage_error("--bandwidth draws the kernels without FLOPs of one run; it does not "
                      "combine with --before/--after");
  if (compare)
    return plot_compare(a, options, file_format, term, to_file);
  run r;
  if (!a.ncu_csv.empty()) {
    ncu_import_options io;
    io.half2_packed = !a.ncu_half_scalar;
    r = import_ncu_csv_file(a.ncu_csv, io);
    if (!a.save_run.empty())
      save_run(a.save_run, r);
  } else {
    r = load_run(a.run_file);
  }
  if (!a.machine_file.empty())
    apply_machine_file(r, a);
  if (!a.kernel.empty())
    r.kernels = select_run_kernels(r, a.kernel);
  if (a.top > 0)
    r = top_kernels_run(r, static_cast<std::size_t>(a.top));
  if (a.bandwidth) {
    if (to_file)
      write_bandwidth_chart(r, a.output, file_format, options);
    if (term)
      std::cout << render_bandwidth_terminal(r, options, a.columns) << std::flush;
    return 0;
  }
  if (to_file)
    write_roofline_chart(r, a.output, file_format, options);
  if (term) {
    terminal_options t;
    t.columns = a.columns;
    t.rows = a.rows;
    t.color = a.color == "always" || (a.color == "auto" && stdout_is_terminal());
    t.bandwidth_hint = "see --bandwidth";
    std::cout << render_roofline_terminal(r, options, t) << std::flush;
  }
  return 0;
}

std::function<int()> add_plot(CLI::App& app) {
  auto a = std::make_shared<plot_args>();
  auto* sub = app.add_subcommand(
      "plot",
      "Roofline chart of a saved run or an ncu CSV export: SVG, HTML, PNG, PDF or terminal");
  sub->add_option("run", a->run_file, "results file (roofkit.run/1 JSON)");
  sub->add_option("-o,--output", a->output, "chart file: .svg, .html, .png or .pdf");
  sub->add_option("--format", a->format, "chart format when the extension does not say it")
      ->check(CLI::IsMember({"svg", "html", "htm", "png", "pdf", "term", "terminal"}));
  sub->add_flag("--term", a->term, "print the terminal chart to stdout (the default without -o)");
  sub->add_option("--import-ncu", a->ncu_csv, "build the run from `ncu --csv --page raw` output");
  sub->add_flag("--ncu-half-scalar", a->ncu_half_scalar,
                "count FP16 instructions as scalar halves (NERSC) instead of half2 (ncu)");
  sub->add_option("--save-run", a->save_run, "with --import-ncu: also save the run as JSON");
  sub->add_option("--ceilings", a->machine_file,
                  "machine file from 'roofline-cuda ceilings --save': its measured roofs "
                  "replace the run's (refused when measured on another GPU)");
  sub->add_flag("--ceilings-any-gpu", a->ceilings_any_gpu,
                "accept a --ceilings machine file measured on another GPU than the run's");
  sub->add_option("--before", a->before, "before/after chart: the first run");
  sub->add_option("--after", a->after, "before/after chart: the second run");
  sub->add_option("--arrow-level", a->arrow_level,
                  "memory level whose points the before/after arrows join")
      ->default_str("dram");
  sub->add_option("--levels", a->levels, "memory levels to draw (default: all)")->delimiter(',');
  sub->add_option("--kernel", a->kernel, "only kernels whose name matches this regex (ECMAScript)");
  sub->add_option("--top", a->top,
                  "only the N kernels holding most of the GPU time, the rest folded into "
                  "'other'; labels carry each kernel's share of the time")
      ->check(CLI::Range(1, 1000));
  sub->add_option("--label", a->label,
                  "label only kernels whose name matches this regex (default: the ones that "
                  "matter)");
  sub->add_option("--colour-by,--color-by", a->colour_by,
                  "colour per topic or per kernel (auto: per kernel up to 12 kernels)")
      ->check(CLI::IsMember({"auto", "topic", "kernel"}))
      ->default_str("auto");
  sub->add_flag("--bandwidth", a->bandwidth,
                "the bandwidth view of the kernels without FLOPs instead of the roofline");
  sub->add_flag("--all-roofs", a->all_roofs,
                "draw every compute roof, not only those of the kernels' precisions");
  sub->add_flag("--recorded", a->recorded,
                "mark a measured run as recorded (replayed, not measured on this machine)");
  sub->add_option("--title", a->title, "chart title (default: Roofline: DEVICE)");
  sub->add_option("--width", a->width, "chart width in px")->default_str("1000");
  sub->add_option("--height", a->height, "chart height in px (grows to fit the legend)")
      ->default_str("660");
  sub->add_option("--color", a->color, "terminal colours")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->default_str("auto");
  sub->add_option("--columns", a->columns, "terminal chart width")->default_str("80");
  sub->add_option("--rows", a->rows, "terminal plot height in text rows")->default_str("20");
  if (auto doc = roofkit::cli::help_page("docs/cli/roofline-cuda-plot.md"))
    sub->footer(std::string(*doc));
  return [a] { return run_plot(*a); };
}

const roofkit::cli::registration plot_registration{"plot", 65, add_plot};

} // namespace

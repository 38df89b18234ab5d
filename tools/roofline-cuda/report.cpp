// roofline-cuda report: prints a saved run (ceilings, kernels, context) as Markdown, CSV or JSON.
#include <functional>
#include <iostream>
#include <memory>
#include <string>

#include "cli_format.hpp"
#include "cli_help.hpp"
#include "roofkit/app_profile.hpp"
#include "roofkit/core.hpp"
#include "roofkit/diagnosis.hpp"
#include "roofkit/results.hpp"
#include "subcommand.hpp"

namespace {

// The occupancy-calc command that shows a cliff.
std::string occupancy_calc_command(const roofkit::diagnosis_cliff& c) {
  std::string cmd = "occupancy-calc --arch " + c.arch + " --threads " + std::to_string(c.threads) +
                    " --regs " + std::to_string(c.registers);
  if (c.static_smem > 0)
    cmd += " --smem-static " + std::to_string(c.static_smem);
  if (c.dynamic_smem > 0)
    cmd += " --smem-dynamic " + std::to_string(c.dynamic_smem);
  return cmd;
}

struct report_args {
  std::string file;
  roofkit::cli::format_flags output;
  bool recorded = false;
  bool wide = false;
  std::string table = "all";
  std::string explain;
};

std::function<int()> add_report(CLI::App& app) {
  auto args = std::make_shared<report_args>();
  auto* sub = app.add_subcommand(
      "report", "Print a saved run: where it comes from, its ceilings and its kernels");
  sub->add_option("run", args->file, "results file (roofkit.run/1 JSON)")->required();
  roofkit::cli::add_format_flags(*sub, args->output, "tables");
  sub->add_flag("--recorded", args->recorded,
                "say the run was not measured on this machine, whatever its context says");
  sub->add_flag("--wide", args->wide,
                "Markdown: every column (default: a table that fits 120 columns)");
  sub->add_option("--table", args->table, "which table to print")
      ->check(CLI::IsMember({"all", "context", "ceilings", "kernels"}))
      ->default_str("all");
  sub->add_option("--explain", args->explain,
                  "the diagnosis of the kernels this names (a label, or a regex searched in the "
                  "labels and full names): verdict, findings with evidence, the cliff command");
  if (auto doc = roofkit::cli::help_page("docs/cli/roofline-cuda-report.md"))
    sub->footer(std::string(*doc));
  return [args] {
    const roofkit::run r = roofkit::load_run(args->file);
    if (!args->explain.empty()) {
      for (std::size_t i : roofkit::find_kernels(r, args->explain))
        std::cout << roofkit::explain_kernel(r, i, occupancy_calc_command) << "\n";
      return 0;
    }
    const auto format = args->output.format();
    roofkit::report_options options;
    options.recorded = args->recorded;
    options.tables = args->table;
    options.wide = args->wide;
    options.wide_hint = "Every column and the notes: --wide.";
    options.source_name = args->file;
    // A profiled application's launches by NVTX range (profile --nvtx-groups or --nvtx).
    const auto ranges = roofkit::ranges_of_run_file(roofkit::read_text_file(args->file));
    if (!ranges.empty())
      options.extra_tables.push_back(roofkit::range_table(roofkit::range_run(r, ranges), ranges));
    roofkit::print_run_report(r, format, std::cout, options);
    return 0;
  };
}

const roofkit::cli::registration report_registration{"report", 60, add_report};

} // namespace

// roofline-cuda report: prints a saved run (ceilings, kernels, context) as Markdown, CSV or JSON.
#include <functional>
#include <iostream>
#include <memory>
#include <string>

#include "roofkit/embedded.hpp"
#include "roofkit/results.hpp"
#include "subcommand.hpp"

namespace {

struct report_args {
  std::string file;
  bool csv = false;
  bool json = false;
  bool markdown = false;
  bool recorded = false;
  std::string table = "all";
};

std::function<int()> add_report(CLI::App& app) {
  auto args = std::make_shared<report_args>();
  auto* sub = app.add_subcommand(
      "report", "Print a saved run: where it comes from, its ceilings and its kernels");
  sub->add_option("run", args->file, "results file (roofkit.run/1 JSON)")->required();
  auto* csv = sub->add_flag("--csv", args->csv, "CSV tables");
  auto* json = sub->add_flag("--json", args->json, "JSON tables");
  auto* md = sub->add_flag("--markdown", args->markdown, "Markdown tables (default)");
  csv->excludes(json, md);
  json->excludes(md);
  sub->add_flag("--recorded", args->recorded,
                "say the run was not measured on this machine, whatever its context says");
  sub->add_option("--table", args->table, "which table to print")
      ->check(CLI::IsMember({"all", "context", "ceilings", "kernels"}))
      ->default_str("all");
  if (auto doc = roofkit::embedded_file("docs/cli/roofline-cuda-report.md"))
    sub->footer(std::string(*doc));
  return [args] {
    const roofkit::run r = roofkit::load_run(args->file);
    const auto format = args->csv    ? roofkit::output_format::csv
                        : args->json ? roofkit::output_format::json
                                     : roofkit::output_format::markdown;
    roofkit::report_options options;
    options.recorded = args->recorded;
    options.tables = args->table;
    options.source_name = args->file;
    roofkit::print_run_report(r, format, std::cout, options);
    return 0;
  };
}

const roofkit::cli::registration reg{"report", 60, add_report};

} // namespace

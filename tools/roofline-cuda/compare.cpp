// roofline-cuda compare: per kernel, the change in time, intensity and % of roof between runs.
#include <functional>
#include <iostream>
#include <memory>
#include <string>

#include "cli_format.hpp"
#include "cli_help.hpp"
#include "roofkit/plot.hpp"
#include "roofkit/results.hpp"
#include "subcommand.hpp"

namespace {

struct compare_args {
  std::string before;
  std::string after;
  roofkit::cli::format_flags output;
  std::string chart;
};

std::function<int()> add_compare(CLI::App& app) {
  auto args = std::make_shared<compare_args>();
  auto* sub = app.add_subcommand(
      "compare", "Compare two saved runs: change in time, intensity and % of roof per kernel");
  sub->add_option("before", args->before, "the first run (roofkit.run/1 JSON)")->required();
  sub->add_option("after", args->after, "the second run (roofkit.run/1 JSON)")->required();
  roofkit::cli::add_format_flags(*sub, args->output, "table");
  sub->add_option("-o,--chart", args->chart,
                  "also draw the before/after chart with arrows (.svg, .html, .png, .pdf)");
  if (auto doc = roofkit::cli::help_page("docs/cli/roofline-cuda-compare.md"))
    sub->footer(std::string(*doc));
  return [args] {
    const auto chart_format = args->chart.empty() ? roofkit::chart_format::svg
                                                  : roofkit::chart_format_for_path(args->chart);
    const roofkit::run before = roofkit::load_run(args->before);
    const roofkit::run after = roofkit::load_run(args->after);
    const auto format = args->output.format();
    roofkit::print_compare_report(roofkit::compare_runs(before, after), format, std::cout,
                                  args->before, args->after);
    if (!args->chart.empty())
      roofkit::write_compare_chart(before, after, args->chart, chart_format);
    return 0;
  };
}

const roofkit::cli::registration compare_registration{"compare", 70, add_compare};

} // namespace

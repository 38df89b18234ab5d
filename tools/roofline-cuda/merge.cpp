// roofline-cuda merge: the run files of a multi-process job's ranks as one run.
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli_format.hpp"
#include "cli_help.hpp"
#include "roofkit/plot.hpp"
#include "roofkit/printer.hpp"
#include "roofkit/ranks.hpp"
#include "roofkit/results.hpp"
#include "subcommand.hpp"

namespace {

struct merge_args {
  std::vector<std::string> inputs;
  std::string output;
  std::vector<std::string> plots;
  std::string collectives_plot;
  std::string interconnect;
  roofkit::cli::format_flags format;
};

std::function<int()> add_merge(CLI::App& app) {
  auto args = std::make_shared<merge_args>();
  auto* sub = app.add_subcommand(
      "merge", "Merge the run files of a job's ranks into one run: kernels across ranks, "
               "collectives, load imbalance");
  sub->add_option("runs", args->inputs, "the ranks' run files (run.rank0.json ...)")->required();
  sub->add_option("-o,--output", args->output, "the merged run (roofkit.run/1 JSON)")->required();
  sub->add_option("--plot", args->plots,
                  "also draw the ranks' kernels on the roofline (.svg, .html, ...)");
  sub->add_option("--collectives-plot", args->collectives_plot,
                  "also draw every rank's collectives, bus bandwidth over message size, against "
                  "the interconnect roof (.svg, .html, ...)");
  sub->add_option("--interconnect", args->interconnect,
                  "the interconnect roof for --collectives-plot: the JSON of ceilings "
                  "--interconnect --save");
  roofkit::cli::add_format_flags(*sub, args->format, "tables");
  if (auto doc = roofkit::cli::help_page("docs/cli/roofline-cuda-merge.md"))
    sub->footer(std::string(*doc));
  return [args] {
    std::vector<roofkit::chart_format> formats;
    for (const auto& p : args->plots)
      formats.push_back(roofkit::chart_format_for_path(p));
    const auto collectives_format = args->collectives_plot.empty()
                                        ? roofkit::chart_format::svg
                                        : roofkit::chart_format_for_path(args->collectives_plot);
    roofkit::interconnect_roof roof;
    if (!args->interconnect.empty())
      roof = roofkit::load_interconnect_roof(args->interconnect);
    std::vector<std::filesystem::path> inputs(args->inputs.begin(), args->inputs.end());
    const auto summary = roofkit::merge_rank_runs(inputs, args->output, [](const std::string& s) {
      std::cerr << "roofline-cuda merge: " << s << '\n';
    });
    auto printer = roofkit::make_printer(args->format.format(), std::cout);
    for (const auto& t : roofkit::merge_tables(summary))
      printer->print(t);
    printer->finish();
    std::cerr << "roofline-cuda merge: " << summary.launches << " profiled launches of "
              << summary.ranks.size() << " ranks written to " << args->output << '\n';
    if (!args->plots.empty()) {
      const roofkit::run merged = roofkit::load_run(args->output);
      for (std::size_t i = 0; i < args->plots.size(); ++i)
        roofkit::write_roofline_chart(merged, args->plots[i], formats[i]);
    }
    if (!args->collectives_plot.empty())
      roofkit::write_canvas(
          roofkit::draw_collectives_chart(summary, roof,
                                          "Collectives of " + std::to_string(summary.ranks.size()) +
                                              " ranks against the interconnect"),
          args->collectives_plot, collectives_format);
    return 0;
  };
}

const roofkit::cli::registration merge_registration{"merge", 72, add_merge};

} // namespace

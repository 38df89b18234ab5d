// roofline-cuda metrics: the metric sets, their CUPTI names per chip and their pass counts.
// Works offline: the CUPTI host API needs no GPU.
#include <iostream>
#include <optional>

#include "cli_help.hpp"
#include "cli_parse.hpp"
#include "roofkit/core.hpp"
#include "roofkit/printer.hpp"
#include "roofkit/profiler.hpp"
#include "subcommand.hpp"

namespace {

struct metrics_args {
  std::string chip;
  std::string set;
  bool json = false;
  bool csv = false;
  bool chips = false;
};

int run_metrics(const metrics_args& a) {
  const auto format = a.json  ? roofkit::output_format::json
                      : a.csv ? roofkit::output_format::csv
                              : roofkit::output_format::markdown;
  auto out = roofkit::make_printer(format, std::cout);
  if (a.chips) {
    roofkit::table t;
    t.id = "chips";
    t.title = "Chips known to CUPTI";
    t.columns = {{"chip", "Chip"}, {"max_metrics_per_pass", "Hardware metrics per pass"}};
    for (const auto& c : roofkit::supported_chips()) {
      const int per_pass = roofkit::max_metrics_per_pass(c);
      t.rows.push_back({c, per_pass > 0 ? roofkit::cell{std::int64_t{per_pass}} : roofkit::cell{}});
    }
    t.notes.push_back("An empty count: the range profiler does not support that chip.");
    out->print(t);
    out->finish();
    return 0;
  }
  std::optional<std::string> set;
  if (!a.set.empty())
    set = roofkit::find_metric_set(a.set).name;
  std::string chip = a.chip;
  if (chip.empty() && roofkit::visible_device_count() > 0)
    chip = roofkit::device_chip_name(0);
  if (chip.empty()) {
    // No GPU and no --chip: the sets alone; names and passes need a chip.
    std::cerr << "roofline-cuda: note: no GPU found; add --chip NAME for CUPTI names and pass "
                 "counts (see --chips)\n";
    auto t = roofkit::metric_sets_table();
    t.notes.back() = "Pass counts depend on the chip: add --chip NAME (e.g. --chip GH100).";
    if (set)
      std::erase_if(t.rows, [&](const auto& row) { return std::get<std::string>(row[0]) != *set; });
    out->print(t);
    out->finish();
    return 0;
  }
  const auto resolved = roofkit::resolve_offline(chip, set);
  const auto tables = roofkit::metric_tables(resolved);
  if (format == roofkit::output_format::csv) {
    out->print(tables.back()); // one flat table: every row carries its set and pass count
  } else {
    for (const auto& t : tables)
      out->print(t);
  }
  out->finish();
  return 0;
}

std::string help_footer() {
  const auto doc = roofkit::cli::help_page("docs/cli/roofline-cuda-metrics.md");
  return doc ? std::string(*doc) : std::string();
}

const roofkit::cli::registration metrics_registration{
    "metrics", 60, [](CLI::App& app) -> std::function<int()> {
      auto args = std::make_shared<metrics_args>();
      auto* sub = app.add_subcommand(
          "metrics", "List the CUPTI metric sets with names and pass counts per chip (no GPU "
                     "needed)");
      sub->add_option("--chip", args->chip,
                      "CUPTI chip name (GH100, GA100, AD102, GB202, ...); default: GPU 0's");
      sub->add_option("--set", args->set,
                      "only this set (roofline, roofline-full, tensor, coalescing)");
      auto* json = sub->add_flag("--json", args->json, "JSON output");
      auto* csv = sub->add_flag("--csv", args->csv, "CSV output (one table)");
      json->excludes(csv);
      sub->add_flag("--chips", args->chips, "list the chips CUPTI knows and exit");
      sub->footer(help_footer());
      return [args] { return run_metrics(*args); };
    }};

} // namespace

// roofline-cuda list: prints the kernel registry (arguments only; the table is built in lib/).
#include <iostream>

#include "cli_errors.hpp"
#include "cli_help.hpp"
#include "roofkit/printer.hpp"
#include "roofkit/registry.hpp"
#include "subcommand.hpp"

namespace {

const roofkit::cli::registration list_registration{
    "list", 40, [](CLI::App& app) -> std::function<int()> {
      auto* cmd =
          app.add_subcommand("list", "Print the bundled kernels: sizes, FLOPs, bytes, claims");
      if (auto doc = roofkit::cli::help_page("docs/cli/roofline-cuda-list.md"))
        cmd->footer(std::string(*doc));
      struct options {
        bool json = false;
        bool csv = false;
        std::string kernel;
      };
      auto opt = std::make_shared<options>();
      auto* json = cmd->add_flag("--json", opt->json, "Print JSON instead of a Markdown table");
      auto* csv = cmd->add_flag("--csv", opt->csv, "Print CSV instead of a Markdown table");
      json->excludes(csv);
      cmd->add_option("--kernel", opt->kernel,
                      "Only kernels whose name matches this regular expression (ECMAScript)");
      return [opt] {
        const auto kernels = roofkit::cli::for_flag(
            "--kernel", [&] { return roofkit::select_kernels(opt->kernel); });
        const auto format = opt->json  ? roofkit::output_format::json
                            : opt->csv ? roofkit::output_format::csv
                                       : roofkit::output_format::markdown;
        auto printer = roofkit::make_printer(format, std::cout);
        auto table = roofkit::kernel_list_table(kernels);
        table.title = "Bundled kernels";
        table.notes.back().pop_back(); // the library's note ends with '.'
        table.notes.back() += "; `roofline-cuda bench` measures them.";
        printer->print(table);
        printer->finish();
        return 0;
      };
    }};

} // namespace

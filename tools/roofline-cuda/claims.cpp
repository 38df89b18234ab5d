// roofline-cuda claims: measures the seed articles' claims against a saved run (arguments only).
#include <iostream>

#include "cli_help.hpp"
#include "roofkit/bench.hpp"
#include "roofkit/core.hpp"
#include "roofkit/results.hpp"
#include "subcommand.hpp"
#include "suite/claims_markdown.hpp"

namespace {

const roofkit::cli::registration claims_registration{
    "claims", 55, [](CLI::App& app) -> std::function<int()> {
      auto* cmd =
          app.add_subcommand("claims", "Check the seed articles' claims against a saved run");
      if (auto doc = roofkit::cli::help_page("docs/cli/roofline-cuda-claims.md"))
        cmd->footer(std::string(*doc));
      struct options {
        std::string run_file;
        std::string output;
        std::string notes;
        bool json = false;
        bool csv = false;
      };
      auto o = std::make_shared<options>();
      cmd->add_option("run", o->run_file, "A run file written by `bench -o`")->required();
      cmd->add_option("-o,--output", o->output, "Write the claims as Markdown to this file");
      cmd->add_option("--notes", o->notes,
                      "A JSON object of claim id -> explanation, added to the Markdown");
      auto* json = cmd->add_flag("--json", o->json, "Print JSON");
      auto* csv = cmd->add_flag("--csv", o->csv, "Print CSV");
      json->excludes(csv);
      return [o] {
        const auto r = roofkit::load_run(o->run_file);
        const auto outcomes = roofkit::evaluate_claims(r);
        if (!o->output.empty()) {
          const auto notes = o->notes.empty() ? std::map<std::string, std::string>{}
                                              : roofkit::load_claim_notes(o->notes);
          const std::string command = "roofline-cuda claims " + o->run_file +
                                      (o->notes.empty() ? "" : " --notes " + o->notes) + " -o " +
                                      o->output;
          roofkit::write_text_file(o->output,
                                   roofkit::kernels::claims_markdown(r, outcomes, o->run_file,
                                                                     command, notes, o->notes));
          return 0;
        }
        const auto format = o->json  ? roofkit::output_format::json
                            : o->csv ? roofkit::output_format::csv
                                     : roofkit::output_format::markdown;
        auto printer = roofkit::make_printer(format, std::cout);
        printer->print(roofkit::claims_table(outcomes));
        printer->finish();
        return 0;
      };
    }};

} // namespace

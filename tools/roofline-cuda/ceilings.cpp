// roofline-cuda ceilings: measures this GPU's roofs beside cudaMemcpy and cuBLAS (arguments only).
#include <iostream>

#include "roofkit/ceilings.hpp"
#include "roofkit/device.hpp"
#include "roofkit/embedded.hpp"
#include "subcommand.hpp"

namespace {

const roofkit::cli::registration reg{
    "ceilings", 20, [](CLI::App& app) -> std::function<int()> {
      auto* cmd = app.add_subcommand(
          "ceilings", "Measure DRAM and FMA ceilings, beside cudaMemcpy and cuBLAS, on this GPU");
      if (auto doc = roofkit::embedded_file("docs/cli/roofline-cuda-ceilings.md"))
        cmd->footer(std::string(*doc));
      struct options {
        int device = 0;
        int reps = 20;
        bool no_references = false;
        bool json = false;
        bool csv = false;
      };
      auto o = std::make_shared<options>();
      cmd->add_option("--device", o->device, "CUDA device ordinal");
      cmd->add_option("--reps", o->reps, "Timed repetitions (median reported)")
          ->check(CLI::Range(1, 10000));
      cmd->add_flag("--no-references", o->no_references, "Skip cudaMemcpy and cuBLAS");
      auto* json = cmd->add_flag("--json", o->json, "Print JSON");
      auto* csv = cmd->add_flag("--csv", o->csv, "Print CSV");
      json->excludes(csv);
      return [o] {
        const auto model = roofkit::query_device(o->device);
        roofkit::ceilings_options co;
        co.device = o->device;
        co.repetitions = o->reps;
        co.references = !o->no_references;
        const auto result = roofkit::measure_ceilings(co, roofkit::theoretical_ceilings(model));
        const auto format = o->json  ? roofkit::output_format::json
                            : o->csv ? roofkit::output_format::csv
                                     : roofkit::output_format::markdown;
        if (format == roofkit::output_format::markdown)
          std::cout << "# Ceilings of " << model.name << "\n\n";
        auto printer = roofkit::make_printer(format, std::cout);
        printer->print(roofkit::measured_ceilings_table(result));
        printer->finish();
        return 0;
      };
    }};

} // namespace

// roofline-cuda ceilings: measures this GPU's roofs beside cudaMemcpy and cuBLAS (arguments only).
#include <filesystem>
#include <iostream>

#include "cli_errors.hpp"
#include "cli_help.hpp"
#include "roofkit/ceilings.hpp"
#include "roofkit/core.hpp"
#include "roofkit/device.hpp"
#include "roofkit/interconnect.hpp"
#include "subcommand.hpp"

namespace {

// --interconnect: the node's peer copies and NCCL all-reduce instead of one GPU's roofs.
int run_interconnect(const std::string& nccl_library, int reps, const std::string& save, bool json,
                     bool csv) {
  roofkit::interconnect_options io;
  io.nccl_library = nccl_library;
  if (reps > 0)
    io.repetitions = reps;
  const auto r = roofkit::measure_interconnect(io);
  if (!save.empty())
    roofkit::write_text_file(save, roofkit::interconnect_json(r));
  if (r.gpus < 2) {
    std::cerr << "roofline-cuda: " << r.gpus << " GPU visible: no interconnect to measure\n";
    return 0;
  }
  if (!r.nccl_note.empty())
    std::cerr << "roofline-cuda: " << r.nccl_note << '\n';
  if (json) {
    std::cout << roofkit::interconnect_json(r);
    return 0;
  }
  auto printer = roofkit::make_printer(
      csv ? roofkit::output_format::csv : roofkit::output_format::markdown, std::cout);
  for (const auto& t : roofkit::interconnect_tables(r))
    printer->print(t);
  printer->finish();
  return 0;
}

const roofkit::cli::registration ceilings_registration{
    "ceilings", 20, [](CLI::App& app) -> std::function<int()> {
      auto* cmd = app.add_subcommand(
          "ceilings", "Measure every memory level and precision on this GPU, beside cudaMemcpy "
                      "and cuBLAS; save a machine file");
      if (auto doc = roofkit::cli::help_page("docs/cli/roofline-cuda-ceilings.md"))
        cmd->footer(std::string(*doc));
      struct options {
        int device = 0;
        int reps = 0;
        bool quick = false;
        double sustained = -1;
        bool no_references = false;
        std::string save;
        bool quiet = false;
        bool json = false;
        bool csv = false;
        bool interconnect = false;
        std::string nccl_library;
      };
      auto o = std::make_shared<options>();
      cmd->add_option("--device", o->device, "CUDA device ordinal");
      cmd->add_flag("--quick", o->quick,
                    "Fewer variants and sweep points, no sustained runs "
                    "(under 15 s)");
      cmd->add_option("--reps", o->reps, "Timed repetitions per figure (default 5 quick, 10 full)")
          ->check(CLI::Range(1, 1000));
      cmd->add_option("--sustained", o->sustained,
                      "Seconds of sustained run per compute and DRAM roof (default 2, 0 with "
                      "--quick)")
          ->check(CLI::Range(0.0, 60.0));
      cmd->add_flag("--no-references", o->no_references, "Skip cudaMemcpy, cuBLAS and cuBLASLt");
      cmd->add_option("--save", o->save, "Write the measured roofs to this machine file (JSON)");
      cmd->add_flag("--quiet", o->quiet, "No progress bar");
      auto* json = cmd->add_flag("--json", o->json, "Print JSON");
      auto* csv = cmd->add_flag("--csv", o->csv, "Print CSV");
      json->excludes(csv);
      cmd->add_flag("--interconnect", o->interconnect,
                    "Measure the node's interconnect instead: peer copies per GPU pair and NCCL "
                    "all-reduce bus bandwidth over sizes");
      cmd->add_option("--nccl-lib", o->nccl_library,
                      "libnccl.so.2 to load for --interconnect (default: ROOFKIT_NCCL_LIB, the "
                      "loader's search, PyTorch's wheel)");
      return [o] {
        if (o->interconnect)
          return run_interconnect(o->nccl_library, o->reps, o->save, o->json, o->csv);
        if (!o->save.empty()) { // fail before minutes of measuring, not after
          const auto dir = std::filesystem::path(o->save).parent_path();
          if (!dir.empty() && !std::filesystem::is_directory(dir))
            throw roofkit::usage_error("--save '" + o->save + "': directory '" + dir.string() +
                                       "' does not exist");
        }
        const auto model = roofkit::cli::hint_if_none(
            roofkit::exit_code::no_device, roofkit::cli::no_gpu_model_hint,
            [&] { return roofkit::query_device(o->device); });
        roofkit::ceilings_options co;
        co.device = o->device;
        co.quick = o->quick;
        co.repetitions = o->reps;
        co.sustained_s = o->sustained;
        co.references = !o->no_references;
        roofkit::progress_bar bar(!o->quiet && roofkit::stderr_is_terminal());
        co.progress = [&](std::size_t done, std::size_t total, const std::string& what) {
          bar.update(done, total, what);
        };
        const auto result = roofkit::measure_ceilings(co, roofkit::theoretical_ceilings(model));
        bar.finish();
        if (!o->save.empty())
          roofkit::save_machine_ceilings(
              o->save,
              roofkit::make_machine_ceilings(result, model.name, model.cc_major, model.cc_minor,
                                             model.sm_count, roofkit::cli::command_line()));
        const auto format = o->json  ? roofkit::output_format::json
                            : o->csv ? roofkit::output_format::csv
                                     : roofkit::output_format::markdown;
        if (format == roofkit::output_format::markdown)
          std::cout << "# Ceilings of " << model.name << "\n\n";
        auto roofs = roofkit::ceilings_table(result.ceilings, nullptr);
        roofs.id = "ceilings_roofs";
        roofs.title = "Measured roofs (the best check-passing figure per level and precision)";
        roofs.notes = {"Each roof holds at the SM clock sampled during its own measurement."};
        auto printer = roofkit::make_printer(format, std::cout);
        printer->print(roofs);
        printer->print(roofkit::comparison_table(result));
        printer->print(roofkit::measured_ceilings_table(result));
        printer->print(roofkit::plateaus_table(result));
        printer->finish();
        if (!o->save.empty() && format == roofkit::output_format::markdown)
          std::cout << "\nMachine file: " << o->save << "\n";
        // What passed is printed and saved; a failed check (a wrong result, a time source or
        // clock beyond the hardware) is a failed run.
        const auto failures = roofkit::failed_checks(result);
        for (const auto& f : failures)
          std::cerr << "roofline-cuda: error: " << f << '\n';
        if (!failures.empty()) {
          std::cerr << "roofline-cuda: error: " << failures.size()
                    << " measurement(s) failed their checks; their figures are no roof"
                    << (o->save.empty() ? "" : " and are not in " + o->save + " as roofs") << '\n';
          return 1;
        }
        return 0;
      };
    }};

} // namespace

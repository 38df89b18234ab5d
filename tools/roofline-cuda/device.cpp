// roofline-cuda device: the device model (live or from data/gpus.json) and its theoretical
// ceilings. Arguments only; the logic is in lib/src/device.
#include <iostream>
#include <memory>
#include <optional>

#include "cli_errors.hpp"
#include "cli_help.hpp"
#include "roofkit/core.hpp"
#include "roofkit/device.hpp"
#include "roofkit/printer.hpp"
#include "subcommand.hpp"

namespace {

struct device_options {
  std::string gpu;
  int device = 0;
  bool device_given = false;
  bool json = false;
  bool csv = false;
  bool list = false;
};

int run_device(const device_options& opt) {
  using namespace roofkit;
  const auto format =
      opt.json ? output_format::json : (opt.csv ? output_format::csv : output_format::markdown);
  const auto specs = load_gpu_specs();
  if (opt.list) {
    auto out = make_printer(format, std::cout);
    out->print(gpu_list_table(specs));
    out->finish();
    return 0;
  }
  device_model model;
  std::optional<gpu_spec> spec;
  if (!opt.gpu.empty()) {
    spec = find_gpu(opt.gpu, specs);
    model = model_from_spec(*spec);
  } else if (opt.device_given) {
    model = cli::hint_if_none(exit_code::no_device, cli::no_gpu_model_hint,
                              [&] { return query_device(opt.device); });
  } else {
    if (visible_device_count() == 0) {
      std::string names;
      for (const auto& s : specs)
        names += (names.empty() ? "" : ", ") + s.name;
      throw no_device_error("no GPU found and no --gpu NAME given (known GPUs: " + names + ")");
    }
    model = cli::hint_if_none(exit_code::no_device, cli::no_gpu_model_hint,
                              [&] { return query_device(0); });
  }
  if (!spec && !model.spec_name.empty())
    spec = find_gpu(model.spec_name, specs);
  const auto device = device_table(model);
  const auto ceilings = ceilings_table(theoretical_ceilings(model), spec ? &*spec : nullptr);
  auto out = make_printer(format, std::cout);
  out->print(device);
  out->print(ceilings);
  out->finish();
  return 0;
}

const roofkit::cli::registration device_registration{
    "device", 10, [](CLI::App& app) -> std::function<int()> {
      auto opt = std::make_shared<device_options>();
      auto* sub = app.add_subcommand(
          "device",
          "Show the GPU's model (live or from data/gpus.json) and its theoretical ceilings");
      auto* gpu = sub->add_option("--gpu", opt->gpu,
                                  "Model a known GPU offline, by name, alias or unique prefix");
      auto* dev = sub->add_option("--device", opt->device, "Query the live GPU with this ordinal");
      gpu->excludes(dev);
      auto* json = sub->add_flag("--json", opt->json, "Print JSON");
      auto* csv = sub->add_flag("--csv", opt->csv, "Print CSV");
      json->excludes(csv);
      auto* list = sub->add_flag("--list", opt->list, "List the known GPUs and their aliases");
      list->excludes(gpu);
      list->excludes(dev);
      if (auto doc = roofkit::cli::help_page("docs/cli/roofline-cuda-device.md"))
        sub->footer(std::string(*doc));
      return [opt, dev] {
        opt->device_given = dev->count() > 0;
        return run_device(*opt);
      };
    }};

} // namespace

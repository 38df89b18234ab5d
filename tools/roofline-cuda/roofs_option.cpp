// The `--ceilings` option of bench and profile (arguments and messages only).
#include "roofs_option.hpp"

#include <iostream>

#include "cli_errors.hpp"
#include "roofkit/core.hpp"
#include "roofkit/device.hpp"
#include "subcommand.hpp"

namespace roofkit::cli {

chosen_roofs roofs_for_run(const std::string& value, bool any_gpu, int device, bool show_progress) {
  if (any_gpu && (value.empty() || value == "theoretical"))
    throw usage_error("--ceilings-any-gpu applies to a machine file: give --ceilings FILE");
  progress_bar bar(show_progress);
  roofs_request rq;
  rq.ceilings = value;
  rq.any_gpu = any_gpu;
  rq.device = device;
  rq.command = command_line();
  rq.progress = [&](std::size_t done, std::size_t total, const std::string& what) {
    bar.update(done, total, "roofs: " + what);
  };
  rq.info = [&](const std::string& s) {
    if (show_progress) {
      bar.finish();
      std::cerr << "roofline-cuda: " << s << '\n';
    }
  };
  rq.warn = [&](const std::string& s) {
    bar.finish();
    std::cerr << "roofline-cuda: warning: " << s
              << (s.find("used although") != std::string::npos ? " (--ceilings-any-gpu)" : "")
              << '\n';
  };
  auto chosen = hint_if_none(
      exit_code::no_device,
      "to see a recorded H100 run instead: roofline-cuda report data/runs/h100-sxm.json", [&] {
        const std::vector<ceiling> theoretical = value == "theoretical" || !value.empty()
                                                     ? std::vector<ceiling>{}
                                                     : theoretical_ceilings(query_device(device));
        return choose_roofs(rq, theoretical);
      });
  bar.finish();
  return chosen;
}

void note_roofs(run& r, const chosen_roofs& roofs) {
  if (!roofs.note.empty())
    r.context.extra["roofs"] = roofs.note;
}

} // namespace roofkit::cli

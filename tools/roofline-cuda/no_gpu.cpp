// The GPU subcommands of a build without GPU support (-DROOFKIT_GPU=OFF): each accepts any
// arguments and says in one line how to get a build that runs it (exit 3).
#include "roofkit/core.hpp"
#include "subcommand.hpp"

namespace {

roofkit::cli::subcommand_factory unavailable(const char* name, const char* what) {
  return [name, what](CLI::App& app) -> std::function<int()> {
    auto* cmd =
        app.add_subcommand(name, std::string(what) + " (not in this build: no GPU support)");
    cmd->allow_extras();
    cmd->set_help_flag();
    return [name]() -> int {
      throw roofkit::no_device_error(
          std::string("'") + name +
          "' is not in this build: it was built without GPU support (-DROOFKIT_GPU=OFF, as "
          "scripts/run.sh does without a GPU); rebuild with cmake -DROOFKIT_GPU=ON on a machine "
          "with the CUDA toolkit");
    };
  };
}

const roofkit::cli::registration ceilings{"ceilings", 20,
                                          unavailable("ceilings", "Measure the GPU's roofs")};
const roofkit::cli::registration list{"list", 40, unavailable("list", "Print the bundled kernels")};
const roofkit::cli::registration bench{
    "bench", 50, unavailable("bench", "Verify, time, profile and place the bundled kernels")};
const roofkit::cli::registration profile{
    "profile", 52, unavailable("profile", "Profile the kernels of any CUDA application")};
const roofkit::cli::registration claims{
    "claims", 55, unavailable("claims", "Check the seed articles' claims against a saved run")};
const roofkit::cli::registration metrics{
    "metrics", 60, unavailable("metrics", "The counters each roofline quantity is built from")};
const roofkit::cli::registration cliff{
    "cliff", 56, unavailable("cliff", "Sweep a kernel's launch configuration on the GPU")};

} // namespace

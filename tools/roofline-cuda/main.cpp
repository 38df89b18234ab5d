// roofline-cuda: device facts, ceilings, kernel runs and roofline charts.
#include <algorithm>

#include "cli_parse.hpp"
#include "roofkit/core.hpp"
#include "subcommand.hpp"

int main(int argc, char** argv) {
  return roofkit::guarded_main("roofline-cuda", [&] {
    CLI::App app{"roofline-cuda: where a CUDA kernel sits under the roofs of your GPU, and why",
                 "roofline-cuda"};
    app.set_version_flag("--version", std::string(roofkit::tool_version()) + " (" +
                                          std::string(roofkit::git_revision()) + ")");
    app.require_subcommand(1);
    for (int i = 0; i < argc; ++i) {
      std::string arg = i ? argv[i] : "roofline-cuda";
      if (arg.find_first_of(" \t'\"$`\\|&;<>(){}*?") != std::string::npos) { // quote for a shell
        std::string quoted = "'";
        for (char ch : arg)
          quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
        arg = quoted + "'";
      }
      roofkit::cli::command_line() += (i ? " " : "") + arg;
    }
    auto& entries = roofkit::cli::subcommands();
    std::sort(entries.begin(), entries.end(),
              [](const auto& a, const auto& b) { return a.order < b.order; });
    std::vector<std::pair<std::string, std::function<int()>>> runners;
    for (const auto& entry : entries)
      runners.emplace_back(entry.name, entry.factory(app));
    if (argc > 1 && argv[1][0] != '-') {
      std::string valid;
      bool known = false;
      for (const auto& entry : entries) {
        valid += (valid.empty() ? "" : ", ") + entry.name;
        known = known || entry.name == argv[1];
      }
      if (!known)
        throw roofkit::usage_error("unknown subcommand '" + std::string(argv[1]) +
                                   "' (valid: " + valid + ")");
    }
    if (int code = roofkit::cli::parse_or_exit(app, argc, argv); code >= 0)
      return code;
    for (const auto& [name, run] : runners)
      if (app.got_subcommand(name))
        return run();
    return 2;
  });
}

#pragma once
// Self-registering subcommands for roofline-cuda: each subcommand file defines one
// `const roofkit::cli::registration r{...}` at namespace scope, so main.cpp never changes.
#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace roofkit::cli {

/// Adds a subcommand (with its options) to `app` and returns the function that runs it.
using subcommand_factory = std::function<std::function<int()>(CLI::App& app)>;

struct subcommand_entry {
  std::string name;
  int order;
  subcommand_factory factory;
};

/// The registered subcommands.
inline std::vector<subcommand_entry>& subcommands() {
  static std::vector<subcommand_entry> list;
  return list;
}

/// The command line the tool was started with (set by main), recorded in results files.
inline std::string& command_line() {
  static std::string line;
  return line;
}

/// Registers a subcommand at static-initialisation time; `order` sets its place in --help.
struct registration {
  registration(std::string name, int order, subcommand_factory factory) {
    subcommands().push_back({std::move(name), order, std::move(factory)});
  }
};

} // namespace roofkit::cli

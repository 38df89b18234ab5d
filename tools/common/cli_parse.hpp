#pragma once
// Shared CLI11 glue: parse errors become roofkit usage errors (one line, exit code 2).
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "roofkit/core.hpp"

namespace roofkit::cli {

namespace detail {

/// Levenshtein distance, for "did you mean".
inline std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = up;
    }
  }
  return row[b.size()];
}

/// The option names ("--threads", "-t") of `app` and, when it was named on the command line,
/// of its subcommand.
inline std::vector<std::string> option_names(CLI::App& app, const std::vector<std::string>& args) {
  std::vector<CLI::App*> scopes{&app};
  for (auto* sub : app.get_subcommands({}))
    if (std::find(args.begin(), args.end(), sub->get_name()) != args.end())
      scopes.push_back(sub);
  std::vector<std::string> names;
  for (auto* scope : scopes)
    for (const auto* opt : scope->get_options()) {
      for (const auto& n : opt->get_lnames())
        names.push_back("--" + n);
      for (const auto& n : opt->get_snames())
        names.push_back("-" + n);
    }
  return names;
}

/// One line for arguments the command does not take, in the order given: the first unknown
/// option with the closest valid one, or the unexpected values.
inline std::string unexpected_arguments(CLI::App& app, int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  const auto names = option_names(app, args);
  for (const auto& arg : args) {
    if (arg == "--") // the rest is an application's command line
      break;
    if (arg.size() < 2 || arg[0] != '-' || (arg[1] >= '0' && arg[1] <= '9'))
      continue;
    const std::string name = arg.substr(0, arg.find('='));
    if (std::find(names.begin(), names.end(), name) != names.end())
      continue;
    std::string best;
    std::size_t best_distance = std::string::npos;
    for (const auto& n : names) {
      const std::size_t d = n.size() > 2 ? edit_distance(name, n) : std::string::npos;
      if (d < best_distance) {
        best_distance = d;
        best = n;
      }
    }
    const std::size_t limit = std::max<std::size_t>(2, name.size() / 3);
    return "unknown option '" + name + "'" +
           (best_distance <= limit ? " (did you mean '" + best + "'?)" : std::string()) +
           "; --help lists the options";
  }
  return {};
}

} // namespace detail

/// Parses argv. Returns -1 to go on, or the exit code when --help/--version was handled.
inline int parse_or_exit(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ExtrasError& e) {
    const std::string line = detail::unexpected_arguments(app, argc, argv);
    throw usage_error(line.empty() ? std::string(e.what()) : line);
  } catch (const CLI::ConversionError& e) {
    throw usage_error(std::string(e.what()) + " (expected a number)");
  } catch (const CLI::ParseError& e) {
    throw usage_error(e.what());
  }
  return -1;
}

} // namespace roofkit::cli

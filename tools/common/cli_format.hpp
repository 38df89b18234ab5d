#pragma once
// The --csv, --json and --markdown flags that choose how a subcommand prints its tables.
#include <string>

#include <CLI/CLI.hpp>

#include "roofkit/printer.hpp"

namespace roofkit::cli {

/// The three format flags of one subcommand; at most one may be given.
struct format_flags {
  bool csv = false;
  bool json = false;
  bool markdown = false;

  /// The chosen format: Markdown unless --csv or --json was given.
  output_format format() const {
    return csv ? output_format::csv : json ? output_format::json : output_format::markdown;
  }
};

/// Adds --csv, --json and --markdown (the default) to `sub`, mutually exclusive; `what` ends
/// their help texts ("CSV tables").
inline void add_format_flags(CLI::App& sub, format_flags& flags, const std::string& what) {
  auto* csv = sub.add_flag("--csv", flags.csv, "CSV " + what);
  auto* json = sub.add_flag("--json", flags.json, "JSON " + what);
  auto* md = sub.add_flag("--markdown", flags.markdown, "Markdown " + what + " (default)");
  csv->excludes(json, md);
  json->excludes(md);
}

} // namespace roofkit::cli

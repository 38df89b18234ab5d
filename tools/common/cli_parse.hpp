#pragma once
// Shared CLI11 glue: parse errors become roofkit usage errors (one line, exit code 2).
#include <iostream>

#include <CLI/CLI.hpp>

#include "roofkit/core.hpp"

namespace roofkit::cli {

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
  } catch (const CLI::ConversionError& e) {
    throw usage_error(std::string(e.what()) + " (expected a number)");
  } catch (const CLI::ParseError& e) {
    throw usage_error(e.what());
  }
  return -1;
}

} // namespace roofkit::cli

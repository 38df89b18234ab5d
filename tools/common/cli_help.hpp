#pragma once
// The tools' help pages (docs/cli/*.md), compiled into the tools (tools/CMakeLists.txt), so that
// the --help text and the CLI reference never drift apart.
#include <optional>
#include <string_view>
#include <vector>

namespace roofkit::cli {

/// Text of a help page (path relative to the source tree, e.g. "docs/cli/occupancy-calc.md"), or
/// nullopt when it was not embedded.
std::optional<std::string_view> help_page(std::string_view path);

/// Paths of every embedded help page.
std::vector<std::string_view> help_pages();

} // namespace roofkit::cli

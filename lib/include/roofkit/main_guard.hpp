#pragma once
#include <functional>
#include <string_view>

namespace roofkit {

/// Runs a tool's body and turns every exception into one line on stderr
/// ("TOOL: error: MESSAGE", then "TOOL: hint: ..." when there is one) and the documented exit
/// code (roofkit::error's code; 1 for anything else).
int guarded_main(std::string_view tool, const std::function<int()>& body);

/// True when stderr is a terminal (progress bars and colour are shown only then).
bool stderr_is_terminal();
/// True when stdout is a terminal.
bool stdout_is_terminal();

} // namespace roofkit

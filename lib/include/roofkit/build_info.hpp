#pragma once
#include <string_view>

namespace roofkit {
/// The roofkit version, e.g. "0.1.0".
std::string_view tool_version();
/// The short git revision the library was built from, or "unknown".
std::string_view git_revision();
} // namespace roofkit

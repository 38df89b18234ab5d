#pragma once
#include <optional>
#include <string_view>
#include <vector>

namespace roofkit {
/// Text of a data file compiled into the library (path relative to the source tree, e.g.
/// "data/gpus.json" or "data/arch/sm_90.json"), or nullopt when it was not embedded.
std::optional<std::string_view> embedded_file(std::string_view path);
/// Paths of every embedded file.
std::vector<std::string_view> embedded_files();
} // namespace roofkit

#pragma once
// Where an internal error happened, as users see it: never the build machine's absolute path.
#include <string>
#include <string_view>

namespace roofkit::detail {

/// A source file as errors show it: relative to the project's top folder ("lib/src/x.cpp"), or
/// its base name.
std::string relative_source_path(std::string_view file);

} // namespace roofkit::detail

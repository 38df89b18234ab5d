#pragma once
// Small text helpers shared by the parsers inside the library.
#include <string_view>

namespace roofkit::detail {

/// `s` without leading and trailing white space (std::isspace).
std::string_view trim(std::string_view s);

} // namespace roofkit::detail

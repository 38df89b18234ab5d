#include "internal/user_regex.hpp"

#include "roofkit/core.hpp"
#include <fmt/format.h>

namespace roofkit::detail {

std::regex compile_user_regex(const std::string& pattern, std::string_view what,
                              std::string_view valid) {
  try {
    return std::regex(pattern, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    throw usage_error(fmt::format("{}{}'{}' is not a valid regular expression ({}) (valid: {})",
                                  what, what.empty() ? "" : " ", pattern, e.what(), valid));
  }
}

} // namespace roofkit::detail

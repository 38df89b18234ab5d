#pragma once
// The one place that compiles a regular expression given by a user (kernel, label and metric
// selectors), so that every bad pattern is reported the same way.
#include <regex>
#include <string>
#include <string_view>

namespace roofkit::detail {

/// Compiles `pattern` as an ECMAScript regular expression. A bad pattern throws usage_error
/// "<what> '<pattern>' is not a valid regular expression (<reason>) (valid: <valid>)"; `what`
/// names the pattern ("kernel regex", "label pattern"; empty where the caller adds a flag name)
/// and `valid` says what is expected.
std::regex compile_user_regex(const std::string& pattern, std::string_view what,
                              std::string_view valid = "an ECMAScript regex");

} // namespace roofkit::detail

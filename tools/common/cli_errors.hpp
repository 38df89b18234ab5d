#pragma once
// Flag names on library errors: the library names the bad value and the valid choices; the tools
// say which flag gave the value.
#include <string>
#include <string_view>
#include <utility>

#include "roofkit/core.hpp"

namespace roofkit::cli {

/// Runs `body` and returns what it returns; a usage error it throws is thrown again with `flag`
/// in front of its message ("--kernel '(' is not a valid regular expression ...") and `hint`
/// (when given) as its hint. Other errors pass unchanged.
template <class Body>
decltype(auto) for_flag(std::string_view flag, Body&& body, std::string hint = {}) {
  try {
    return std::forward<Body>(body)();
  } catch (const roofkit::error& e) {
    if (e.code() != roofkit::exit_code::usage)
      throw;
    throw roofkit::error(e.code(), std::string(flag) + " " + e.what(),
                         hint.empty() ? e.hint() : std::move(hint));
  }
}

/// Runs `body` and returns what it returns; an error of `code` it throws without a hint is thrown
/// again with `hint` (e.g. what to do without a GPU). Other errors pass unchanged.
template <class Body>
decltype(auto) hint_if_none(roofkit::exit_code code, std::string hint, Body&& body) {
  try {
    return std::forward<Body>(body)();
  } catch (const roofkit::error& e) {
    if (e.code() != code || !e.hint().empty())
      throw;
    throw roofkit::error(e.code(), e.what(), std::move(hint));
  }
}

/// The hint for a missing GPU where a known GPU's model would do.
inline const char* const no_gpu_model_hint =
    "use --gpu NAME for a known GPU's model (roofline-cuda device --list)";

} // namespace roofkit::cli

#pragma once
// What every fuzz target asserts: a parser of user input either succeeds or rejects the input
// with a usage error (exit code 2, one line naming the bad value). Any other exception is a bug
// (a wrong exit code or an internal error message for bad input), and so is a crash or a
// sanitizer report.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string_view>

#include "roofkit/core.hpp"

namespace roofkit::fuzz {

/// Runs `parse`; returns true when it succeeded, false when it threw a usage error, and aborts
/// (a finding) on any other exception.
template <typename F> bool accepts(std::string_view what, F&& parse) {
  try {
    parse();
    return true;
  } catch (const error& e) {
    if (e.code() == exit_code::usage && e.what()[0] != '\0')
      return false;
    std::fprintf(stderr, "%.*s: roofkit::error with exit code %d for bad input: %s\n",
                 static_cast<int>(what.size()), what.data(), static_cast<int>(e.code()), e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%.*s: exception other than a usage error: %s\n",
                 static_cast<int>(what.size()), what.data(), e.what());
  } catch (...) {
    std::fprintf(stderr, "%.*s: unknown exception\n", static_cast<int>(what.size()), what.data());
  }
  std::abort();
}

/// Aborts with `message` when `condition` is false (an invariant of a parser's output).
inline void check(bool condition, const char* message) {
  if (!condition) {
    std::fprintf(stderr, "fuzz invariant violated: %s\n", message);
    std::abort();
  }
}

} // namespace roofkit::fuzz

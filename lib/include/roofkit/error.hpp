#pragma once
#include <stdexcept>
#include <string>

namespace roofkit {

/// Process exit codes shared by every roofkit tool (see docs/design.md).
enum class exit_code : int {
  ok = 0,        ///< success
  failure = 1,   ///< a runtime failure (CUDA error, failed verification, I/O error)
  usage = 2,     ///< bad usage or bad input (flags, files, values out of range)
  no_device = 3, ///< no GPU, or no access to its performance counters
};

/// The one exception type of roofkit: a one-line message, an exit code, and an optional hint
/// that says what the user can do about it.
class error : public std::runtime_error {
public:
  /// An error with the given exit code, message and hint.
  error(exit_code code, const std::string& message, std::string hint = {});
  /// The exit code a tool should end with.
  exit_code code() const noexcept { return code_; }
  /// What the user can do about it; may be empty.
  const std::string& hint() const noexcept { return hint_; }

private:
  exit_code code_;
  std::string hint_;
};

/// Bad usage or input (exit code 2). The message names the bad value and the valid range.
error usage_error(const std::string& message);
/// A runtime failure (exit code 1).
error runtime_error(const std::string& message, std::string hint = {});
/// No GPU or no counter access (exit code 3).
error no_device_error(const std::string& message, std::string hint = {});

namespace detail {
[[noreturn]] void throw_cuda_error(int status, const char* call, const char* file, int line);
[[noreturn]] void throw_cu_error(int status, const char* call, const char* file, int line);
[[noreturn]] void throw_cupti_error(int status, const char* call, const char* file, int line);
} // namespace detail

} // namespace roofkit

/// Checks a CUDA runtime call; on failure throws roofkit::error naming the call, file and line.
#define ROOFKIT_CUDA_CHECK(call)                                                                   \
  do {                                                                                             \
    const auto roofkit_status_ = (call);                                                           \
    if (static_cast<int>(roofkit_status_) != 0)                                                    \
      ::roofkit::detail::throw_cuda_error(static_cast<int>(roofkit_status_), #call, __FILE__,      \
                                          __LINE__);                                               \
  } while (0)

/// Checks the last kernel launch: use right after `kernel<<<...>>>(...)`.
#define ROOFKIT_CUDA_CHECK_LAUNCH() ROOFKIT_CUDA_CHECK(cudaGetLastError())

/// Checks a CUDA driver API call (CUresult).
#define ROOFKIT_CU_CHECK(call)                                                                     \
  do {                                                                                             \
    const auto roofkit_status_ = (call);                                                           \
    if (static_cast<int>(roofkit_status_) != 0)                                                    \
      ::roofkit::detail::throw_cu_error(static_cast<int>(roofkit_status_), #call, __FILE__,        \
                                        __LINE__);                                                 \
  } while (0)

/// Checks a CUPTI call (CUptiResult).
#define ROOFKIT_CUPTI_CHECK(call)                                                                  \
  do {                                                                                             \
    const auto roofkit_status_ = (call);                                                           \
    if (static_cast<int>(roofkit_status_) != 0)                                                    \
      ::roofkit::detail::throw_cupti_error(static_cast<int>(roofkit_status_), #call, __FILE__,     \
                                           __LINE__);                                              \
  } while (0)

// The guard around the kernel driver's L2 flush (driver_l2_flush.hpp): the driver versions whose
// private interface layout was verified, and the fall back to the L2 sweep, at open or mid-run.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <string_view>

namespace roofkit::detail {

/// Kernel-driver versions whose resource-manager interface (the argument layouts and command
/// numbers in driver_l2_flush.cpp) was verified: the flush is used with these only.
std::span<const std::string_view> verified_driver_versions();

/// The kernel module's version ("580.159.04") in the text of /proc/driver/nvidia/version; empty
/// when the text names none.
std::string driver_version_from_text(const std::string& text);

/// The running kernel module's version, read from /proc/driver/nvidia/version; empty, with the
/// reason in `why_not`, when it cannot be read.
std::string kernel_driver_version(std::string& why_not);

/// The environment variable that forces the sweep ("off"); "on" or unset leaves the choice to
/// the version gate.
inline constexpr const char* driver_flush_env = "ROOFKIT_DRIVER_FLUSH";

/// Why the driver's flush must not be used, or empty when it may: `override_value` is the value
/// of driver_flush_env (null when unset), `version` the kernel module's version (empty when
/// unreadable, with `version_error` saying why).
std::string driver_flush_refusal(const char* override_value, const std::string& version,
                                 const std::string& version_error);

/// What one flush() used.
enum class flushed_by {
  driver,    ///< the driver's flush
  sweep,     ///< the sweep
  fell_back, ///< the driver's flush failed just now: the sweep ran instead, and runs from now on
};

/// Cache control's flush: the driver's while it works, else the sweep, with the reason. The
/// driver's flush and the sweep are functions, so a test can fake either.
class l2_flush_guard {
public:
  /// `driver` flushes through the driver and throws on failure; empty when it is not used, with
  /// the reason in `why_not`. `make_sweep` prepares the sweep (its buffer) and returns the
  /// function that runs it; it is called once, when the sweep is first needed. `warn` receives
  /// the one line that says the sweep is used instead of the driver's flush (at construction
  /// when `driver` is empty and `why_not` is not, else at the failure); it may be empty.
  l2_flush_guard(std::function<void()> driver, std::string why_not,
                 std::function<std::function<void()>()> make_sweep,
                 std::function<void(const std::string&)> warn);

  /// Flushes with the driver's flush or the sweep; a failure of the driver's falls back.
  flushed_by flush();
  /// Whether the driver's flush is still used.
  bool uses_driver() const { return static_cast<bool>(driver_); }
  /// "driver" or "sweep".
  std::string method() const { return uses_driver() ? "driver" : "sweep"; }
  /// Why the sweep is used instead of the driver's flush; empty while the driver's is used.
  const std::string& fallback_reason() const { return reason_; }
  /// Prepares the sweep now if it is the method (its buffer is made before any profiled pass).
  void prepare();

private:
  void fall_back(const std::string& why);
  std::function<void()> driver_;
  std::string reason_;
  std::function<std::function<void()>()> make_sweep_;
  std::function<void()> sweep_;
  std::function<void(const std::string&)> warn_;
};

} // namespace roofkit::detail

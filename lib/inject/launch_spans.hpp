#pragma once
// Launch times from CUPTI's kernel activity records, for the launch timer (launch_timer.hpp):
// which record belongs to which timed launch, and per group of launches whether the records or
// the events time it. Pure bookkeeping, tested on the CPU.
#include <cstddef>
#include <cstdint>
#include <map>

#include "roofkit/app_profile.hpp"

namespace roofkit::inject {

/// Launch times from kernel activity records: each timed launch waits, by the driver call's
/// correlation id, for the record of its own function; a record of another function under the
/// same id (a kernel the profiler launched inside the application's launch call) is passed over.
/// Not thread-safe: the launch timer holds its lock around every call.
class launch_spans {
public:
  /// At most `limit` launches wait for their records at once.
  explicit launch_spans(std::size_t limit = 1 << 20) : limit_(limit) {}
  /// Records will arrive (kernel activity is traced): launches wait for them from now on.
  void start() { expecting_ = true; }
  /// A launch of function `symbol` (mangled) counted under `group` will have a record.
  void expect(std::uint32_t correlation, int group, const char* symbol);
  /// The launch did not happen: no record will come.
  void cancel(std::uint32_t correlation) { awaiting_.erase(correlation); }
  /// A record; true when it was a launch's awaited one, whose time then counts.
  bool record(std::uint32_t correlation, const char* symbol, std::uint64_t start_ns,
              std::uint64_t end_ns);
  /// Per group, the records' times where every launch the events timed (`events`) has one
  /// (equal counts), else the events'; groups without events are left out.
  std::map<int, launch_time_stats> prefer(const std::map<int, launch_time_stats>& events) const;
  /// Groups of `events` that keep the events' times.
  int groups_left_to_events(const std::map<int, launch_time_stats>& events) const;
  /// Whether launches wait for records: after start(), until `limit` launches waited at once
  /// (records are not coming; the events time every group from then on).
  bool expecting() const { return expecting_; }

private:
  struct awaited {
    int group;
    std::size_t symbol; ///< hash of the function's mangled name
  };
  std::map<std::uint32_t, awaited> awaiting_;
  std::map<int, launch_time_stats> times_;
  std::size_t limit_;
  bool expecting_ = false;
};

} // namespace roofkit::inject

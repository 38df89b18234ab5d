#pragma once
// Launch times from CUPTI's kernel activity records, for the launch timer (launch_timer.hpp):
// which record belongs to which launch, and each group's times from its records and its launches
// timed by events. Pure bookkeeping, tested on the CPU.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>

#include "roofkit/app_profile.hpp"

namespace roofkit::inject {

/// The hash a launch and its kernel activity record are matched by: of the mangled name.
std::size_t symbol_hash(const char* mangled);

/// Launch times from kernel activity records: a launch timed by its record waits, by the driver
/// call's correlation id, for the record of its own function; a record of another function under
/// the same id (a kernel the profiler launched inside the application's launch call) is passed
/// over. The launches that do not wait (no name, or records not traced) are timed by events, and
/// some that wait by events as well (samples, for when the records stop: another tool took
/// CUPTI's activity buffers); the caller keeps both. Not thread-safe: the launch timer holds its
/// lock around every call.
class launch_spans {
public:
  /// At most `limit` launches wait for their records at once.
  explicit launch_spans(std::size_t limit = 1 << 20) : limit_(limit) {}
  /// Records will arrive (kernel activity is traced): launches wait for them from now on.
  void start() { expecting_ = true; }
  /// A launch of the function whose mangled name hashes to `symbol` (symbol_hash; none: no name)
  /// counted under `group`: when it waits for its record, how many launches of the group have
  /// waited so far, this one included; 0 when the caller times it (no name, records not traced,
  /// or `limit` launches waiting already: records are not coming, and no launch waits from then
  /// on).
  std::int64_t expect(std::uint32_t correlation, int group, std::optional<std::size_t> symbol);
  /// The launch did not happen: no record will come, and it is not counted.
  void cancel(std::uint32_t correlation);
  /// A record of the function whose mangled name hashes to `symbol`; true when it was a
  /// launch's awaited one, whose time then counts.
  bool record(std::uint32_t correlation, std::size_t symbol, std::uint64_t start_ns,
              std::uint64_t end_ns);
  /// Per group: the times of the launches that did not wait (`events`) with those of the launches
  /// that waited, from their records, or from the event samples among them (`samples`) where no
  /// record came; either stands for every launch that waited, its total scaled to their number.
  std::map<int, launch_time_stats> combine(const std::map<int, launch_time_stats>& events,
                                           const std::map<int, launch_time_stats>& samples) const;
  /// Groups some of whose launches waited for a record that never came.
  int groups_short_of_records() const;
  /// Whether launches wait for records: after start(), until `limit` launches waited at once.
  bool expecting() const { return expecting_; }

private:
  struct awaited {
    int group;
    std::size_t symbol; ///< hash of the function's mangled name
  };
  std::map<std::uint32_t, awaited> awaiting_;
  std::map<int, std::int64_t> waited_; ///< launches that waited for a record, per group
  std::map<int, launch_time_stats> times_;
  std::size_t limit_;
  bool expecting_ = false;
};

} // namespace roofkit::inject

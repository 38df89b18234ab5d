#pragma once
// Times every kernel launch of the application with a pair of events on its stream, so that each
// kernel's share of the GPU time is known whether it was profiled or not. Completed pairs are
// collected as later launches arrive; at most `max_pending` pairs wait, and each group's times are
// kept as launch_time_stats, so memory stays flat however many launches.
//
// Where kernel activity records arrive as well (on_span), a group's times are the records' GPU
// start to end instead, when every timed launch of the group has its record: an event pair also
// holds what the GPU waited for between the two events (the driver loading the module at a
// kernel's first launch, the launch itself reaching an idle GPU), which the record does not.
#include <cuda.h>

#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "launch_spans.hpp"
#include "roofkit/app_profile.hpp"

namespace roofkit::inject {

class launch_timer {
public:
  /// Records the start event before the launch (callback entry). Returns false when it could not.
  /// `group` is the caller's number for what the launch is counted under; `correlation` the
  /// driver call's correlation id and `symbol` the function's mangled name (null: unknown), which
  /// its kernel activity record carries.
  bool begin(CUcontext ctx, CUstream stream, int group, std::uint32_t correlation,
             const char* symbol);
  /// Records the stop event after the launch (callback exit) on the same thread.
  void end(bool launched);
  /// Waits for the pending pairs of `ctx` (all contexts when null) and collects them.
  void drain(CUcontext ctx = nullptr);
  /// Kernel activity records will arrive (on_span): each timed launch waits for its own.
  void expect_spans() { spans_.start(); }
  /// A kernel activity record: the launch of this correlation id ran function `symbol` from
  /// `start_ns` to `end_ns`. A record of another function under the same id (a kernel the tool
  /// launched inside the application's launch call) is passed over.
  void on_span(std::uint32_t correlation, const char* symbol, std::uint64_t start_ns,
               std::uint64_t end_ns);
  /// Per group: launches and times so far (after drain()), from the activity records where every
  /// timed launch of the group has one, else from the events.
  std::map<int, launch_time_stats> stats();
  /// Groups whose times are the events' because some of their launches had no activity record.
  int groups_timed_by_events();

private:
  struct pair {
    CUcontext ctx;
    CUevent start;
    CUevent stop;
    int kernel;
  };
  CUevent take(CUcontext ctx);
  void collect(bool wait_all, CUcontext ctx);
  void retire(const pair& p);

  std::mutex mutex_;
  std::deque<pair> pending_;
  std::map<CUcontext, std::vector<CUevent>> free_;
  std::map<int, launch_time_stats> times_;
  launch_spans spans_;
  static constexpr std::size_t max_pending = 4096;
};

} // namespace roofkit::inject

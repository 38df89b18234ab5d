#pragma once
// Times every kernel launch of the application with a pair of events on its stream, so that each
// kernel's share of the GPU time is known whether it was profiled or not. Completed pairs are
// collected as later launches arrive; at most `max_pending` pairs wait, and each group's times are
// kept as launch_time_stats, so memory stays flat however many launches.
#include <cuda.h>

#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "roofkit/app_profile.hpp"

namespace roofkit::inject {

class launch_timer {
public:
  /// Records the start event before the launch (callback entry). Returns false when it could not.
  /// `group` is the caller's number for what the launch is counted under.
  bool begin(CUcontext ctx, CUstream stream, int group);
  /// Records the stop event after the launch (callback exit) on the same thread.
  void end(bool launched);
  /// Waits for the pending pairs of `ctx` (all contexts when null) and collects them.
  void drain(CUcontext ctx = nullptr);
  /// Per group: launches and times so far (after drain()).
  std::map<int, launch_time_stats> stats();

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
  static constexpr std::size_t max_pending = 4096;
};

} // namespace roofkit::inject

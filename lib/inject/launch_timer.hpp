#pragma once
// Times every kernel launch of the application with a pair of events on its stream, so that each
// kernel's share of the GPU time is known whether it was profiled or not. Completed pairs are
// collected as later launches arrive; at most `max_pending` pairs wait, so memory stays flat.
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
  bool begin(CUcontext ctx, CUstream stream, int kernel_id);
  /// Records the stop event after the launch (callback exit) on the same thread.
  void end(bool launched);
  /// Waits for the pending pairs of `ctx` (all contexts when null) and collects them.
  void drain(CUcontext ctx = nullptr);
  /// Per kernel id: launches and times so far (after drain()).
  std::vector<kernel_timing> timings(const std::vector<std::string>& names);

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
  std::map<int, std::vector<float>> times_ms_;
  static constexpr std::size_t max_pending = 4096;
};

} // namespace roofkit::inject

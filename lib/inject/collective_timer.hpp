#pragma once
// Collective kernels (NCCL's) are never replayed: a rank's copy waits for its peers, so a
// replay alone would hang or measure nothing. Each launch is timed instead, with a pair of
// events on its stream, and written as a "collective" record (its GPU time, waiting included).
#include <cuda.h>

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>

#include "roofkit/ranks.hpp"

namespace roofkit::inject {

class collective_timer {
public:
  using sink = std::function<void(const std::string&)>;
  explicit collective_timer(sink write) : write_(std::move(write)) {}
  /// At the launch's callback entry: records the start event (the context is current).
  void begin(CUstream stream, const std::string& name, std::int64_t index, std::int64_t pid);
  /// At its exit, on the same thread: records the stop event; writes the finished launches.
  void end(bool launched);
  /// Waits for the pending launches of `ctx` (all when null) and writes them.
  void drain(CUcontext ctx = nullptr);

private:
  struct pending {
    CUcontext ctx = nullptr;
    CUstream stream = nullptr;
    CUevent start = nullptr;
    CUevent stop = nullptr;
    collective_launch launch;
  };
  /// Writes `p` when its stop event completes before `deadline`; frees its events.
  void retire(pending& p, std::chrono::steady_clock::time_point deadline);

  sink write_;
  std::mutex mutex_;
  std::deque<pending> pending_;
  static constexpr std::size_t max_pending = 1024;
  static constexpr std::chrono::seconds wait_limit{10};
};

} // namespace roofkit::inject

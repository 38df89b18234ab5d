#pragma once
// Times every kernel launch of the application, so that each kernel's share of the GPU time is
// known whether it was profiled or not: by its kernel activity record (on_span, GPU start to end)
// where kernel activity is traced, else by a pair of events on its stream. With a pair on every
// launch beside its record, this timer cost a launch about 10 us on a training step and 5.4 us
// on tiny launches (validation/data/launch-cost-h200.json); a pair also holds what the GPU waited
// for between its events (the driver loading the module at a kernel's first launch, the launch
// reaching an idle GPU). While records are traced, one launch in `sample_every` of each group is
// timed by events as well, for a group whose records stop coming (another tool in the process took
// CUPTI's activity buffers). Completed pairs are collected as later launches arrive; at most
// `max_pending` pairs wait, and each group's times are kept as launch_time_stats, so memory stays
// flat however many launches.
#include <cuda.h>

#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "launch_spans.hpp"
#include "roofkit/app_profile.hpp"

namespace roofkit::inject {

class launch_timer {
public:
  /// Before the launch (callback entry): the launch waits for its activity record, or its start
  /// event is recorded. Returns false when neither could be.
  /// `group` is the caller's number for what the launch is counted under; `correlation` the
  /// driver call's correlation id and `symbol` the symbol_hash of the function's mangled name
  /// (none: unknown), which its kernel activity record carries.
  bool begin(CUcontext ctx, CUstream stream, int group, std::uint32_t correlation,
             std::optional<std::size_t> symbol);
  /// After the launch (callback exit) on the same thread: records its stop event, or, when it
  /// failed, stops waiting for its record.
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
  /// Per group: launches and times so far (after drain()), from the activity records and the
  /// events; a group some of whose records never came is extrapolated from its timed launches.
  std::map<int, launch_time_stats> stats();
  /// Groups with a launch timed by events (none while kernel activity is traced).
  int groups_timed_by_events();
  /// Groups with a launch whose activity record never came (extrapolated).
  int groups_short_of_records();

private:
  struct pair {
    CUcontext ctx;
    CUevent start;
    CUevent stop;
    int kernel;
    bool sample; ///< the launch waits for its record too
  };
  CUevent take(CUcontext ctx);
  void collect(bool wait_all, CUcontext ctx);
  void retire(const pair& p);

  std::mutex mutex_;
  std::deque<pair> pending_;
  std::map<CUcontext, std::vector<CUevent>> free_;
  std::map<int, launch_time_stats> times_;   ///< launches timed by events alone
  std::map<int, launch_time_stats> samples_; ///< event times of launches that wait for records
  launch_spans spans_;
  static constexpr std::size_t max_pending = 4096;
  static constexpr std::int64_t sample_every = 16;
};

} // namespace roofkit::inject

#pragma once
// What the injected library says about its own run on stderr: progress over a long run (launches
// seen, profiled, inferred) and, when asked with ROOFKIT_REPLAY_PHASES=1, where the replay time
// of the profiled launches went, the callbacks and module loads the injection took, and its span.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "roofkit/profiler.hpp"

namespace roofkit::inject {

/// A progress line on stderr, rewritten in place at most twice a second.
class progress_meter {
public:
  explicit progress_meter(bool on) : on_(on) {}
  /// After a launch: prints when half a second passed since the last line.
  void tick(std::int64_t seen, std::int64_t profiled, std::int64_t inferred);
  /// Ends the line (once something was printed).
  void finish();

private:
  bool on_;
  bool printed_ = false;
  std::int64_t ticks_ = 0;
  std::chrono::steady_clock::time_point last_{};
};

/// Time of the replay phases that the profiler session does not see (checkpoint saves, the
/// synchronisations before them), and the report of every phase.
class replay_phases {
public:
  /// ROOFKIT_REPLAY_PHASES is set to something other than "" or "0".
  static bool enabled();
  void add_save(double seconds) { save_s_ += seconds; }
  void add_sync(double seconds) { sync_s_ += seconds; }
  /// A module-loaded callback that took `seconds` of ours (reading the module's image).
  void add_module(double seconds);
  /// A driver or resource callback that took `seconds` in all (replays inside it included).
  void add_callback(double seconds);
  /// `seconds` more of a named part of the injection's time (reported in the order first added).
  void add(std::string_view what, double seconds);
  /// One line per phase: total seconds and ms per profiled launch, for `profiled` launches with
  /// the sessions' summed statistics `t`.
  std::string report(const profiler_stats& t, std::int64_t profiled, std::int64_t batches) const;

private:
  double save_s_ = 0;
  double sync_s_ = 0;
  std::atomic<std::int64_t> modules_{0};
  std::atomic<std::int64_t> module_ns_{0};
  std::atomic<std::int64_t> callbacks_{0};
  std::atomic<std::int64_t> callback_ns_{0};
  std::chrono::system_clock::time_point started_ = std::chrono::system_clock::now();
  mutable std::mutex parts_mutex_;
  std::vector<std::pair<std::string, std::pair<std::int64_t, double>>> parts_; // calls, seconds
};

/// Adds the time from its construction to its destruction to the part `what` of `phases` (null:
/// nothing is timed).
class phase_timer {
public:
  phase_timer(replay_phases* phases, const char* what)
      : phases_(phases), what_(what), start_(std::chrono::steady_clock::now()) {}
  ~phase_timer() {
    if (phases_)
      phases_->add(
          what_, std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
  }
  phase_timer(const phase_timer&) = delete;
  phase_timer& operator=(const phase_timer&) = delete;

private:
  replay_phases* phases_;
  const char* what_;
  std::chrono::steady_clock::time_point start_;
};

} // namespace roofkit::inject

#pragma once
// A device's two metric sets: the full (bench) set, which the first launches of every shape carry,
// and the per-launch set, which leaves out what those launches measure for their whole shape and
// needs fewer passes (bench_per_launch_metric_set). One session each; one of the two has CUPTI's
// range profiler enabled at a time, and a switch costs the other's warm-up set of passes.
#include <cstddef>
#include <map>
#include <memory>
#include <string>

#include "roofkit/profiler.hpp"

namespace roofkit::inject {

/// Which shapes' launches may carry the per-launch set: those whose first `full_launches` launches
/// were measured with the full set and counted nothing that the per-launch set leaves out.
class shape_detail_book {
public:
  explicit shape_detail_book(int full_launches) : full_launches_(full_launches) {}
  /// Whether a launch of `shape` may be measured with the per-launch set.
  bool per_launch_enough(int shape) const;
  /// A launch of `shape` measured with the full set; `misses`: it counted work that the
  /// per-launch set would not see (per_launch_set_misses).
  void note_full(int shape, bool misses);

private:
  struct detail {
    int full = 0;
    bool needs_full = false;
  };
  int full_launches_;
  std::map<int, detail> shapes_;
};

/// The full set's session and, where asked for and fewer passes, the per-launch set's.
class counter_sets {
public:
  /// Opens the full set's session on `device` and enables its profiler (throws as
  /// profiler_session does). `per_launch`: the per-launch set's session is opened too, not
  /// enabled; one that cannot be opened, or saves no pass, is warned about or dropped.
  counter_sets(int device, profiler_options options, bool per_launch);

  profiler_session& full() { return *full_; }
  /// The session to measure with, its profiler enabled and the other's released: the per-launch
  /// set's when `per_launch` and there is one, else the full set's. A per-launch session that
  /// cannot be enabled is warned about and dropped.
  profiler_session& use(bool per_launch);
  /// Whether `s` is the per-launch set's session.
  bool is_per_launch(const profiler_session& s) const { return &s == per_launch_.get(); }
  /// The per-launch set's passes (0 without one).
  int per_launch_passes() const { return per_launch_ ? per_launch_->passes() : 0; }
  /// Switches between the two sessions so far, and the seconds they took.
  std::size_t switches() const { return switches_; }
  double switch_s() const { return switch_s_; }
  /// Both sessions' statistics, summed.
  profiler_stats stats() const;
  /// Disables the enabled profiler (another process may then enable its own).
  void release_range_profiler();
  /// The context is being destroyed: both sessions let go of it (profiler_session::context_lost).
  void context_lost();

private:
  void open_per_launch();

  int device_;
  profiler_options options_;
  std::unique_ptr<profiler_session> full_;
  std::unique_ptr<profiler_session> per_launch_;
  profiler_session* enabled_ = nullptr;
  std::size_t switches_ = 0;
  double switch_s_ = 0;
};

} // namespace roofkit::inject

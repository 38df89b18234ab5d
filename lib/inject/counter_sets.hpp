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

/// When to switch from the full set to the per-launch set for a batch that may carry it. A switch
/// costs the other session's enabling; staying costs each of the batch's launches the difference
/// between the two sets' cost a launch. The planner switches once the current run of such batches
/// has cost as much by staying as a switch there and back (the break-even rule of the ski-rental
/// problem: never more than twice what knowing the run's length would have cost). Costs are the
/// ones measured so far. The per-launch set's cost a launch starts as the full set's scaled by
/// the two sets' passes, an estimate worth one full batch of measured launches.
class set_switch_planner {
public:
  /// `batch_launches`: the launches of a full batch, the weight of the first estimate.
  set_switch_planner(int full_passes, int per_launch_passes, std::size_t batch_launches)
      : full_passes_(full_passes), per_launch_passes_(per_launch_passes),
        batch_launches_(batch_launches) {}
  /// A session was enabled in `seconds`: the full set's first enabling, then every switch. A
  /// switch is reckoned at the mean of the switches, or at the first enabling before any.
  void note_enable(double seconds);
  /// A batch of `launches` measured launches took `seconds` of passes on one set.
  void note_batch(bool per_launch, std::size_t launches, double seconds);
  /// The full set enabled and a batch of `launches` that may carry the per-launch set: whether to
  /// switch now. Staying adds the batch to the current run.
  bool switch_for(std::size_t launches);
  /// A batch that needs the full set: the run of batches that could have switched ends.
  void run_ended() { run_launches_ = 0; }
  /// The per-launch set's expected saving a launch, in seconds (0 when it saves nothing).
  double saving_per_launch() const;
  /// What a switch is expected to cost, in seconds.
  double switch_cost() const;

private:
  struct cost {
    double seconds = 0;
    std::size_t launches = 0;
  };
  int full_passes_;
  int per_launch_passes_;
  std::size_t batch_launches_;
  double first_enable_s_ = 0;
  double switches_s_ = 0;
  std::size_t enables_ = 0;
  cost full_;
  cost per_launch_;
  std::size_t run_launches_ = 0;
};

/// The full set's session and, where asked for and fewer passes, the per-launch set's.
class counter_sets {
public:
  /// Opens the full set's session on `device` and enables its profiler (throws as
  /// profiler_session does). `per_launch`: the per-launch set's session is opened too, not
  /// enabled; one that cannot be opened, or saves no pass, is warned about or dropped.
  /// `batch_launches`: the measured launches of a full batch (set_switch_planner).
  counter_sets(int device, profiler_options options, bool per_launch, std::size_t batch_launches);

  profiler_session& full() { return *full_; }
  /// The session for a batch of `launches` measured launches, its profiler enabled and the
  /// other's released: the per-launch set's when `per_launch_possible`, there is one, and it is
  /// enabled or a switch pays (set_switch_planner); else the full set's. A per-launch session that
  /// cannot be enabled is warned about and dropped.
  profiler_session& use_for_batch(bool per_launch_possible, std::size_t launches);
  /// The passes of a batch of `launches` measured launches on `used` took `seconds`.
  void note_batch(const profiler_session& used, std::size_t launches, double seconds);
  /// Batches that could have carried the per-launch set but stayed on the full set, as a switch
  /// would not yet have paid for itself.
  std::size_t batches_kept_full() const { return kept_full_; }
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
  // The per-launch set's session when `per_launch` and there is one, else the full set's; enabled.
  profiler_session& use(bool per_launch);
  profiler_session& enable(profiler_session* target);

  int device_;
  profiler_options options_;
  std::unique_ptr<profiler_session> full_;
  std::unique_ptr<profiler_session> per_launch_;
  profiler_session* enabled_ = nullptr;
  std::size_t switches_ = 0;
  double switch_s_ = 0;
  std::unique_ptr<set_switch_planner> planner_;
  std::size_t kept_full_ = 0;
};

} // namespace roofkit::inject

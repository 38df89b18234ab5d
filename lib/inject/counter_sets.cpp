#include "counter_sets.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <utility>

namespace roofkit::inject {

bool shape_detail_book::per_launch_enough(int shape) const {
  const auto it = shapes_.find(shape);
  return it != shapes_.end() && it->second.full >= full_launches_ && !it->second.needs_full;
}

void shape_detail_book::note_full(int shape, bool misses) {
  detail& d = shapes_[shape];
  ++d.full;
  d.needs_full = d.needs_full || misses;
}

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

void set_switch_planner::note_enable(double seconds) {
  if (enables_++ == 0)
    first_enable_s_ = seconds;
  else
    switches_s_ += seconds;
}

void set_switch_planner::note_batch(bool per_launch, std::size_t launches, double seconds) {
  cost& c = per_launch ? per_launch_ : full_;
  c.seconds += seconds;
  c.launches += launches;
}

double set_switch_planner::saving_per_launch() const {
  if (full_.launches == 0 || full_passes_ <= 0)
    return 0;
  const double full = full_.seconds / static_cast<double>(full_.launches);
  const double prior = static_cast<double>(batch_launches_);
  const double estimate = full * per_launch_passes_ / full_passes_;
  const double per_launch = (per_launch_.seconds + estimate * prior) /
                            (static_cast<double>(per_launch_.launches) + prior);
  return std::max(0.0, full - per_launch);
}

double set_switch_planner::switch_cost() const {
  return enables_ > 1 ? switches_s_ / static_cast<double>(enables_ - 1) : first_enable_s_;
}

bool set_switch_planner::switch_for(std::size_t launches) {
  run_launches_ += launches;
  const double saving = saving_per_launch();
  if (saving <= 0 || static_cast<double>(run_launches_) * saving < 2 * switch_cost())
    return false;
  run_launches_ = 0;
  return true;
}

counter_sets::counter_sets(int device, profiler_options options, bool per_launch,
                           std::size_t batch_launches)
    : device_(device), options_(std::move(options)) {
  full_ = std::make_unique<profiler_session>(device_, bench_metric_set(), options_);
  // Before any profiler is enabled on the context: a session reads the counter availability,
  // which CUPTI refuses while one is (CUPTI_ERROR_INVALID_PARAMETER).
  if (per_launch)
    open_per_launch();
  const auto t0 = std::chrono::steady_clock::now();
  full_->enable_range_profiler();
  enabled_ = full_.get();
  if (per_launch_) {
    planner_ = std::make_unique<set_switch_planner>(full_->passes(), per_launch_->passes(),
                                                    batch_launches);
    planner_->note_enable(seconds_since(t0));
  }
}

void counter_sets::open_per_launch() {
  profiler_options quiet = options_;
  quiet.warn = [](const std::string&) {}; // the full set's session said it already
  try {
    auto s = std::make_unique<profiler_session>(device_, bench_per_launch_metric_set(), quiet);
    if (s->passes() < full_->passes())
      per_launch_ = std::move(s);
  } catch (const std::exception& e) {
    if (options_.warn)
      options_.warn(std::string("every launch keeps the full metric set: ") + e.what());
  }
}

profiler_session& counter_sets::use(bool per_launch) {
  profiler_session* target = per_launch && per_launch_ ? per_launch_.get() : full_.get();
  return target == enabled_ ? *target : enable(target);
}

profiler_session& counter_sets::enable(profiler_session* target) {
  const auto t0 = std::chrono::steady_clock::now();
  enabled_->release_range_profiler();
  try {
    target->enable_range_profiler();
  } catch (const std::exception& e) {
    if (target == full_.get())
      throw;
    if (options_.warn)
      options_.warn(std::string("every launch keeps the full metric set: ") + e.what());
    per_launch_->release_range_profiler();
    per_launch_.reset();
    planner_.reset();
    target = full_.get();
    target->enable_range_profiler();
  }
  enabled_ = target;
  ++switches_;
  const double seconds = seconds_since(t0);
  switch_s_ += seconds;
  if (planner_)
    planner_->note_enable(seconds);
  return *target;
}

profiler_session& counter_sets::use_for_batch(bool per_launch_possible, std::size_t launches) {
  if (!per_launch_ || !per_launch_possible) {
    if (planner_)
      planner_->run_ended();
    return use(false);
  }
  if (enabled_ == per_launch_.get() || planner_->switch_for(launches))
    return use(true);
  ++kept_full_;
  return *full_;
}

void counter_sets::note_batch(const profiler_session& used, std::size_t launches, double seconds) {
  if (planner_)
    planner_->note_batch(is_per_launch(used), launches, seconds);
}

profiler_stats counter_sets::stats() const {
  profiler_stats all = full_->stats();
  if (per_launch_)
    all += per_launch_->stats();
  return all;
}

void counter_sets::release_range_profiler() { enabled_->release_range_profiler(); }

void counter_sets::context_lost() {
  if (per_launch_)
    per_launch_->context_lost();
  full_->context_lost();
}

} // namespace roofkit::inject

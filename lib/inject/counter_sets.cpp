#include "counter_sets.hpp"

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

counter_sets::counter_sets(int device, profiler_options options, bool per_launch)
    : device_(device), options_(std::move(options)) {
  full_ = std::make_unique<profiler_session>(device_, bench_metric_set(), options_);
  // Before any profiler is enabled on the context: a session reads the counter availability,
  // which CUPTI refuses while one is (CUPTI_ERROR_INVALID_PARAMETER).
  if (per_launch)
    open_per_launch();
  full_->enable_range_profiler();
  enabled_ = full_.get();
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
  if (target == enabled_)
    return *target;
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
    target = full_.get();
    target->enable_range_profiler();
  }
  enabled_ = target;
  ++switches_;
  switch_s_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return *target;
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

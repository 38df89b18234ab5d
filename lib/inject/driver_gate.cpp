// The gate between the application's driver calls and the profiler's replays.
#include "driver_gate.hpp"

namespace roofkit::inject {

namespace {
thread_local int call_depth = 0;   // this thread's driver calls under way, nested ones included
thread_local bool counted = false; // this thread is counted in driver_gate::inside_
thread_local int hold_depth = 0;   // this thread's hold_scope objects alive
} // namespace

void driver_gate::count_in() {
  std::unique_lock lock(mutex_);
  if (hold_depth == 0)
    changed_.wait(lock, [this] { return !held_; });
  ++inside_;
  counted = true;
}

void driver_gate::count_out() {
  {
    std::lock_guard lock(mutex_);
    --inside_;
    counted = false;
  }
  changed_.notify_all();
}

void driver_gate::enter() {
  if (call_depth++ == 0)
    count_in();
}

void driver_gate::exit() {
  if (call_depth == 0 || --call_depth > 0)
    return;
  if (counted)
    count_out();
}

int driver_gate::threads_inside() {
  std::lock_guard lock(mutex_);
  return inside_;
}

driver_gate::hold_scope::hold_scope(driver_gate& gate) : gate_(gate) {
  if (hold_depth++ > 0)
    return;
  std::unique_lock lock(gate_.mutex_);
  gate_.changed_.wait(lock, [this] { return !gate_.held_; });
  gate_.held_ = true;
  const int own = counted ? 1 : 0; // the holder may itself be inside a call
  drained_ =
      gate_.changed_.wait_for(lock, gate_.limit_, [this, own] { return gate_.inside_ <= own; });
}

driver_gate::hold_scope::~hold_scope() {
  if (--hold_depth > 0)
    return;
  {
    std::lock_guard lock(gate_.mutex_);
    gate_.held_ = false;
  }
  gate_.changed_.notify_all();
}

driver_gate::outside_scope::outside_scope(driver_gate& gate) : gate_(gate), was_inside_(counted) {
  if (was_inside_)
    gate_.count_out();
}

driver_gate::outside_scope::~outside_scope() {
  if (was_inside_)
    gate_.count_in();
}

} // namespace roofkit::inject

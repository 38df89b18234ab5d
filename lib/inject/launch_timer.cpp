#include "launch_timer.hpp"

#include <algorithm>

#include "launch_registers.hpp"

namespace roofkit::inject {

namespace {

struct open_pair {
  bool active = false;
  CUcontext ctx = nullptr;
  CUstream stream = nullptr;
  CUevent start = nullptr; // null: timed by its record alone
  int kernel = -1;
  std::uint32_t correlation = 0;
  bool waits = false; // for its activity record
};
thread_local open_pair current;

} // namespace

CUevent launch_timer::take(CUcontext ctx) {
  auto& pool = free_[ctx];
  if (!pool.empty()) {
    CUevent e = pool.back();
    pool.pop_back();
    return e;
  }
  CUevent e = nullptr;
  if (cuEventCreate(&e, CU_EVENT_DEFAULT) != CUDA_SUCCESS)
    return nullptr;
  return e;
}

bool launch_timer::begin(CUcontext ctx, CUstream stream, int group, std::uint32_t correlation,
                         std::optional<std::size_t> symbol) {
  std::lock_guard lock(mutex_);
  // Before the launch: its record may come at once.
  const std::int64_t waited = spans_.expect(correlation, group, symbol);
  const bool waits = waited > 0;
  current = {true, ctx, stream, nullptr, group, correlation, waits};
  if (waits && waited % sample_every != 1)
    return true;
  CUevent start = take(ctx);
  if (!start || cuEventRecord(start, stream) != CUDA_SUCCESS) {
    if (start)
      free_[ctx].push_back(start);
    current.active = waits;
    return waits;
  }
  current.start = start;
  return true;
}

void launch_timer::end(bool launched) {
  if (!current.active)
    return;
  const open_pair p = current;
  current.active = false;
  if (launched && !p.start) // timed by its record alone
    return;
  std::lock_guard lock(mutex_);
  if (!launched && p.waits)
    spans_.cancel(p.correlation);
  if (!p.start)
    return;
  CUevent stop = launched ? take(p.ctx) : nullptr;
  if (!stop || cuEventRecord(stop, p.stream) != CUDA_SUCCESS) {
    free_[p.ctx].push_back(p.start);
    if (stop)
      free_[p.ctx].push_back(stop);
    return;
  }
  pending_.push_back({p.ctx, p.start, stop, p.kernel, p.waits});
  collect(false, nullptr);
}

void launch_timer::retire(const pair& p) {
  float ms = 0;
  if (cuEventElapsedTime(&ms, p.start, p.stop) == CUDA_SUCCESS)
    (p.sample ? samples_ : times_)[p.kernel].add(static_cast<double>(ms) * 1e-3);
  free_[p.ctx].push_back(p.start);
  free_[p.ctx].push_back(p.stop);
}

void launch_timer::collect(bool wait_all, CUcontext ctx) {
  // Oldest first; stop at the first pair still running unless told to wait or over the cap.
  for (auto it = pending_.begin(); it != pending_.end();) {
    if (ctx && it->ctx != ctx) {
      ++it;
      continue;
    }
    CUresult q = cuEventQuery(it->stop);
    if (q == CUDA_ERROR_NOT_READY) {
      if (!wait_all && pending_.size() <= max_pending)
        break;
      q = cuEventSynchronize(it->stop);
    }
    if (q == CUDA_SUCCESS)
      retire(*it);
    it = pending_.erase(it);
  }
}

void launch_timer::drain(CUcontext ctx) {
  bool spans = false;
  {
    std::lock_guard lock(mutex_);
    collect(true, ctx);
    if (ctx) {
      for (CUevent e : free_[ctx])
        cuEventDestroy(e);
      free_.erase(ctx);
    }
    spans = spans_.expecting();
  }
  // Every timed kernel has finished, so its record is in a buffer; flushed outside the lock, as
  // the flush hands the records to on_span().
  if (!ctx && spans)
    flush_kernel_activity();
}

void launch_timer::on_span(std::uint32_t correlation, const char* symbol, std::uint64_t start_ns,
                           std::uint64_t end_ns) {
  const std::size_t hash = symbol_hash(symbol); // outside the lock that launches wait for
  std::lock_guard lock(mutex_);
  spans_.record(correlation, hash, start_ns, end_ns);
}

std::map<int, launch_time_stats> launch_timer::stats() {
  std::lock_guard lock(mutex_);
  return spans_.combine(times_, samples_);
}

int launch_timer::groups_timed_by_events() {
  std::lock_guard lock(mutex_);
  return static_cast<int>(
      std::count_if(times_.begin(), times_.end(), [](const auto& g) { return g.second.count(); }));
}

int launch_timer::groups_short_of_records() {
  std::lock_guard lock(mutex_);
  return spans_.groups_short_of_records();
}

} // namespace roofkit::inject

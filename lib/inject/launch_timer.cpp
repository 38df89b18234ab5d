#include "launch_timer.hpp"

#include <functional>
#include <string_view>

#include "launch_book.hpp"
#include "launch_registers.hpp"

namespace roofkit::inject {

namespace {

struct open_pair {
  bool active = false;
  CUcontext ctx = nullptr;
  CUstream stream = nullptr;
  CUevent start = nullptr;
  int kernel = -1;
  std::uint32_t correlation = 0;
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
                         const char* symbol) {
  std::lock_guard lock(mutex_);
  CUevent start = take(ctx);
  if (!start || cuEventRecord(start, stream) != CUDA_SUCCESS) {
    if (start)
      free_[ctx].push_back(start);
    return false;
  }
  current = {true, ctx, stream, start, group, correlation};
  if (expect_spans_ && awaiting_span_.size() >= max_awaiting_spans) {
    expect_spans_ = false; // the events time every group from here
    awaiting_span_.clear();
  }
  if (expect_spans_ && symbol) // before the launch: its record may come at once
    awaiting_span_[correlation] = {group, std::hash<std::string_view>{}(symbol)};
  return true;
}

void launch_timer::end(bool launched) {
  if (!current.active)
    return;
  std::lock_guard lock(mutex_);
  open_pair p = current;
  current.active = false;
  CUevent stop = launched ? take(p.ctx) : nullptr;
  if (!stop || cuEventRecord(stop, p.stream) != CUDA_SUCCESS) {
    awaiting_span_.erase(p.correlation);
    free_[p.ctx].push_back(p.start);
    if (stop)
      free_[p.ctx].push_back(stop);
    return;
  }
  pending_.push_back({p.ctx, p.start, stop, p.kernel});
  collect(false, nullptr);
}

void launch_timer::retire(const pair& p) {
  float ms = 0;
  if (cuEventElapsedTime(&ms, p.start, p.stop) == CUDA_SUCCESS)
    times_[p.kernel].add(static_cast<double>(ms) * 1e-3);
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
    spans = expect_spans_;
  }
  // Every timed kernel has finished, so its record is in a buffer; flushed outside the lock, as
  // the flush hands the records to on_span().
  if (!ctx && spans)
    flush_kernel_activity();
}

void launch_timer::on_span(std::uint32_t correlation, const char* symbol, std::uint64_t start_ns,
                           std::uint64_t end_ns) {
  const std::size_t hash = std::hash<std::string_view>{}(symbol);
  std::lock_guard lock(mutex_);
  const auto it = awaiting_span_.find(correlation);
  if (it == awaiting_span_.end() || it->second.symbol != hash)
    return; // not a timed launch of the application (a replay, a graph's or the tool's kernel)
  span_times_[it->second.group].add(static_cast<double>(end_ns - start_ns) * 1e-9);
  awaiting_span_.erase(it);
}

std::map<int, launch_time_stats> launch_timer::stats() {
  std::lock_guard lock(mutex_);
  return prefer_spans(times_, span_times_);
}

int launch_timer::groups_timed_by_events() {
  std::lock_guard lock(mutex_);
  int n = 0;
  for (const auto& [group, t] : times_) {
    const auto span = span_times_.find(group);
    n += span == span_times_.end() || span->second.count() != t.count();
  }
  return n;
}

} // namespace roofkit::inject

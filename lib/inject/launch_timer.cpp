#include "launch_timer.hpp"

namespace roofkit::inject {

namespace {

struct open_pair {
  bool active = false;
  CUcontext ctx = nullptr;
  CUstream stream = nullptr;
  CUevent start = nullptr;
  int kernel = -1;
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

bool launch_timer::begin(CUcontext ctx, CUstream stream, int group) {
  std::lock_guard lock(mutex_);
  CUevent start = take(ctx);
  if (!start || cuEventRecord(start, stream) != CUDA_SUCCESS) {
    if (start)
      free_[ctx].push_back(start);
    return false;
  }
  current = {true, ctx, stream, start, group};
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
  std::lock_guard lock(mutex_);
  collect(true, ctx);
  if (ctx) {
    for (CUevent e : free_[ctx])
      cuEventDestroy(e);
    free_.erase(ctx);
  }
}

std::map<int, launch_time_stats> launch_timer::stats() {
  std::lock_guard lock(mutex_);
  return times_;
}

} // namespace roofkit::inject

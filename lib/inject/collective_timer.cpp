#include "collective_timer.hpp"

#include <chrono>
#include <optional>
#include <thread>

namespace roofkit::inject {

namespace {

thread_local std::optional<collective_launch> open_launch;
thread_local CUevent open_start = nullptr;
thread_local CUstream open_stream = nullptr;

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

} // namespace

void collective_timer::begin(CUstream stream, const std::string& name, std::int64_t index,
                             std::int64_t pid) {
  open_launch.reset();
  CUevent start = nullptr;
  if (cuEventCreate(&start, CU_EVENT_DEFAULT) != CUDA_SUCCESS)
    return;
  if (cuEventRecord(start, stream) != CUDA_SUCCESS) {
    cuEventDestroy(start);
    return;
  }
  collective_launch l;
  l.pid = pid;
  l.index = index;
  l.name = name;
  l.stream = reinterpret_cast<std::uintptr_t>(stream);
  l.t_ns = now_ns();
  open_launch = std::move(l);
  open_start = start;
  open_stream = stream;
}

void collective_timer::end(bool launched) {
  if (!open_launch)
    return;
  pending p;
  p.start = open_start;
  p.stream = open_stream;
  p.launch = std::move(*open_launch);
  open_launch.reset();
  cuCtxGetCurrent(&p.ctx);
  if (!launched || cuEventCreate(&p.stop, CU_EVENT_DEFAULT) != CUDA_SUCCESS ||
      cuEventRecord(p.stop, p.stream) != CUDA_SUCCESS) {
    cuEventDestroy(p.start);
    if (p.stop)
      cuEventDestroy(p.stop);
    return;
  }
  std::lock_guard lock(mutex_);
  pending_.push_back(std::move(p));
  // The finished ones go now; past max_pending the oldest is waited for (memory stays flat).
  while (!pending_.empty() &&
         (cuEventQuery(pending_.front().stop) == CUDA_SUCCESS || pending_.size() > max_pending)) {
    retire(pending_.front(), std::chrono::steady_clock::now() + wait_limit);
    pending_.pop_front();
  }
}

void collective_timer::drain(CUcontext ctx) {
  std::lock_guard lock(mutex_);
  // A collective whose peer died never ends: drain gives up on it after the limit.
  const auto deadline = std::chrono::steady_clock::now() + wait_limit;
  for (auto it = pending_.begin(); it != pending_.end();) {
    if (ctx && it->ctx != ctx) {
      ++it;
      continue;
    }
    retire(*it, deadline);
    it = pending_.erase(it);
  }
}

void collective_timer::retire(pending& p, std::chrono::steady_clock::time_point deadline) {
  CUresult r = CUDA_ERROR_NOT_READY;
  while ((r = cuEventQuery(p.stop)) == CUDA_ERROR_NOT_READY &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  float ms = 0;
  if (r == CUDA_SUCCESS && cuEventElapsedTime(&ms, p.start, p.stop) == CUDA_SUCCESS) {
    p.launch.time_s = static_cast<double>(ms) * 1e-3;
    write_(collective_line(p.launch));
  }
  cuEventDestroy(p.start);
  cuEventDestroy(p.stop);
}

} // namespace roofkit::inject

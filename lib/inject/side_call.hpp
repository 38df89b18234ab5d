#pragma once
// A call on a thread of its own with a CUDA context current, for host work that overlaps work
// of the calling thread.
#include <cuda.h>

#include <exception>
#include <functional>
#include <thread>

#include "roofkit/core.hpp"

namespace roofkit::inject {

/// Runs `f` on a new thread with `ctx` current; join() waits for it and rethrows what it threw.
/// The destructor waits too, so `f` never outlives what it refers to.
class side_call {
public:
  side_call(CUcontext ctx, std::function<void()> f)
      : thread_([this, ctx, f = std::move(f)] {
          try {
            ROOFKIT_CU_CHECK(cuCtxSetCurrent(ctx));
            f();
          } catch (...) {
            error_ = std::current_exception();
          }
        }) {}
  ~side_call() {
    if (thread_.joinable())
      thread_.join();
  }
  side_call(const side_call&) = delete;
  side_call& operator=(const side_call&) = delete;

  /// Waits for the call; rethrows its exception, if any.
  void join() {
    if (thread_.joinable())
      thread_.join();
    if (error_)
      std::rethrow_exception(error_);
  }

private:
  std::exception_ptr error_; // declared before the thread, which writes it
  std::thread thread_;
};

} // namespace roofkit::inject

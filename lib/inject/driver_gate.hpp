#pragma once
// Keeps an application's threads out of the CUDA driver while the profiler replays launches.
#include <chrono>
#include <condition_variable>
#include <mutex>

namespace roofkit::inject {

/// A gate between the application's driver calls and the profiler's replays. Every driver call the
/// injector subscribes to (launches, and the calls that end or drop a batch; queries run unseen)
/// passes enter() once its entry callback is done and exit() at its exit callback, so the gate
/// knows which threads are inside such a call's body. A replay holds the gate (hold_scope):
/// it waits until no other thread is inside a driver call (at most a time limit), and calls that
/// reach the gate meanwhile wait until the replay is over. One gate per process: the per-thread
/// state is thread-local.
class driver_gate {
public:
  /// `limit`: how long a hold waits for the other threads' calls under way.
  explicit driver_gate(std::chrono::milliseconds limit) : limit_(limit) {}

  /// At the end of a call's entry callback: waits while another thread holds the gate, then
  /// counts this thread as inside the driver. Nested calls pass at once and count once.
  void enter();
  /// At the end of a call's exit callback. An exit without its entry (the gate came later) is
  /// ignored.
  void exit();

  /// Holds the gate for its lifetime. Re-entrant on one thread; one thread holds it at a time.
  class hold_scope {
  public:
    explicit hold_scope(driver_gate& gate);
    ~hold_scope();
    hold_scope(const hold_scope&) = delete;
    hold_scope& operator=(const hold_scope&) = delete;
    /// False when the limit passed with other threads still inside a driver call.
    bool drained() const { return drained_; }

  private:
    driver_gate& gate_;
    bool drained_ = true;
  };

  /// Counts this thread out of the driver for its lifetime, when it waits for something a holder
  /// may hold (a callback inside a call's body that takes the profiler's lock); at its end the
  /// thread waits for the gate and is counted in again.
  class outside_scope {
  public:
    explicit outside_scope(driver_gate& gate);
    ~outside_scope();
    outside_scope(const outside_scope&) = delete;
    outside_scope& operator=(const outside_scope&) = delete;

  private:
    driver_gate& gate_;
    bool was_inside_ = false;
  };

  /// Threads inside a driver call now (for tests and messages).
  int threads_inside();

private:
  void count_in(); // waits unless this thread holds the gate
  void count_out();

  std::chrono::milliseconds limit_;
  std::mutex mutex_;
  std::condition_variable changed_;
  int inside_ = 0;    // threads inside a driver call's body
  bool held_ = false; // a replay holds the gate
};

} // namespace roofkit::inject

// The gate that keeps an application's threads out of the CUDA driver while the profiler replays
// launches (lib/inject/driver_gate.cpp): a replay waits for the calls under way, calls wait for
// the replay, nested calls count once, and a call that never ends holds a replay up only for the
// gate's limit. Threads and timing only, no GPU.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>

#include "driver_gate.hpp"

namespace {

using namespace std::chrono_literals;
using roofkit::inject::driver_gate;

constexpr auto settle = 100ms; // long enough for a thread that is free to go on to get there

// An application thread inside a driver call from construction until leave().
class thread_in_call {
public:
  explicit thread_in_call(driver_gate& gate)
      : thread_([this, &gate] {
          gate.enter();
          inside_.set_value();
          leave_.get_future().wait();
          gate.exit();
        }) {
    inside_.get_future().wait();
  }
  ~thread_in_call() {
    if (thread_.joinable())
      leave();
  }
  void leave() {
    leave_.set_value();
    thread_.join();
  }

private:
  std::promise<void> inside_;
  std::promise<void> leave_;
  std::thread thread_;
};

TEST(driver_gate, a_replay_waits_for_the_calls_under_way) {
  driver_gate gate(10s);
  thread_in_call app(gate);
  EXPECT_EQ(gate.threads_inside(), 1);
  std::atomic<bool> holding{false};
  std::thread replay([&] {
    const driver_gate::hold_scope hold(gate);
    EXPECT_TRUE(hold.drained());
    EXPECT_EQ(gate.threads_inside(), 0);
    holding = true;
  });
  std::this_thread::sleep_for(settle);
  EXPECT_FALSE(holding.load()) << "the replay started while a call was under way";
  app.leave();
  replay.join();
  EXPECT_TRUE(holding.load());
}

TEST(driver_gate, calls_wait_for_the_replay) {
  driver_gate gate(10s);
  std::atomic<bool> passed{false};
  std::thread app;
  {
    const driver_gate::hold_scope hold(gate);
    EXPECT_TRUE(hold.drained());
    app = std::thread([&] {
      gate.enter();
      passed = true;
      gate.exit();
    });
    std::this_thread::sleep_for(settle);
    EXPECT_FALSE(passed.load()) << "a call went in during the replay";
    EXPECT_EQ(gate.threads_inside(), 0);
  }
  app.join();
  EXPECT_TRUE(passed.load());
  EXPECT_EQ(gate.threads_inside(), 0);
}

TEST(driver_gate, nested_calls_count_once_and_a_stray_exit_is_ignored) {
  driver_gate gate(10s);
  gate.exit(); // an exit whose entry came before the gate
  EXPECT_EQ(gate.threads_inside(), 0);
  gate.enter();
  gate.enter();
  EXPECT_EQ(gate.threads_inside(), 1);
  gate.exit();
  EXPECT_EQ(gate.threads_inside(), 1);
  gate.exit();
  EXPECT_EQ(gate.threads_inside(), 0);
}

TEST(driver_gate, the_holder_inside_a_call_of_its_own_and_nested_holds_do_not_wait) {
  driver_gate gate(10s);
  gate.enter(); // as when a callback inside a call's body replays
  const auto start = std::chrono::steady_clock::now();
  {
    const driver_gate::hold_scope outer(gate);
    EXPECT_TRUE(outer.drained());
    const driver_gate::hold_scope inner(gate);
    EXPECT_TRUE(inner.drained());
    gate.enter(); // the holder's own nested call passes
    gate.exit();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, 1s);
  gate.exit();
  EXPECT_EQ(gate.threads_inside(), 0);
}

TEST(driver_gate, a_call_that_never_ends_holds_a_replay_up_for_the_limit_only) {
  driver_gate gate(200ms);
  thread_in_call app(gate);
  const auto start = std::chrono::steady_clock::now();
  {
    const driver_gate::hold_scope hold(gate);
    EXPECT_FALSE(hold.drained());
  }
  const auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_GE(waited, 200ms);
  EXPECT_LT(waited, 5s);
  app.leave();
  EXPECT_EQ(gate.threads_inside(), 0);
}

TEST(driver_gate, a_thread_counted_out_lets_a_replay_start_and_waits_for_it_to_come_back) {
  driver_gate gate(10s);
  std::promise<void> out_now;
  std::promise<void> come_back;
  std::atomic<bool> back{false};
  std::thread app([&] {
    gate.enter();
    {
      const driver_gate::outside_scope out(gate); // waits for the profiler's lock, say
      out_now.set_value();
      come_back.get_future().wait();
    }
    back = true;
    gate.exit();
  });
  out_now.get_future().wait();
  EXPECT_EQ(gate.threads_inside(), 0);
  {
    const driver_gate::hold_scope hold(gate);
    EXPECT_TRUE(hold.drained());
    come_back.set_value();
    std::this_thread::sleep_for(settle);
    EXPECT_FALSE(back.load()) << "the thread came back in during the replay";
  }
  app.join();
  EXPECT_TRUE(back.load());
  EXPECT_EQ(gate.threads_inside(), 0);
}

} // namespace

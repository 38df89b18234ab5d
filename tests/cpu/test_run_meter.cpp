// The replay-phase report of the injection library (lib/inject/run_meter.cpp, printed under
// ROOFKIT_REPLAY_PHASES=1): seconds and milliseconds per profiled launch for each phase, the
// callbacks and module loads it took, and the injection's span with both ends in epoch
// nanoseconds.
#include <gtest/gtest.h>

#include <cstdint>
#include <regex>
#include <string>

#include "run_meter.hpp"

namespace {

TEST(run_meter, replay_phases_report_per_launch_callbacks_and_span) {
  roofkit::inject::replay_phases phases;
  phases.add_save(0.5);
  phases.add_sync(0.1);
  phases.add_module(0.002);
  phases.add_module(0.003);
  phases.add_callback(1.25);
  phases.add_callback(0.75);
  phases.add_callback(0.5);
  roofkit::profiler_stats t;
  t.passes = 8;
  t.flush_s = 0.2;
  t.issue_s = 0.04;
  t.wait_s = 0.6;
  t.image_bytes = 3 << 20;
  const std::string out = phases.report(t, 4, 2);
  EXPECT_NE(out.find("over 4 profiled launches in 2 sets of passes (8 passes)"), std::string::npos)
      << out;
  EXPECT_TRUE(
      std::regex_search(out, std::regex(R"(checkpoint save +0\.500 s +125\.000 ms/launch)")))
      << out;
  EXPECT_TRUE(std::regex_search(out, std::regex(R"(of which cache flush +0\.200 s +50\.000 ms)")))
      << out;
  EXPECT_TRUE(std::regex_search(out, std::regex(R"(of which launch calls +0\.040 s +10\.000 ms)")))
      << out;
  EXPECT_TRUE(std::regex_search(
      out, std::regex(R"(of which waits for the launches +0\.600 s +150\.000 ms)")))
      << out;
  EXPECT_NE(out.find("largest counter image 3.0 MiB"), std::string::npos) << out;
  EXPECT_NE(out.find("2 module loads read in 0.005 s; 3 callbacks took 2.500 s"), std::string::npos)
      << out;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(out, m, std::regex(R"(started at (\d+) ns, exit at (\d+) ns)")))
      << out;
  const auto started = std::stoll(m[1].str());
  const auto exited = std::stoll(m[2].str());
  EXPECT_GT(started, 1'700'000'000'000'000'000LL); // after 2023, in nanoseconds
  EXPECT_GE(exited, started);
}

TEST(run_meter, replay_phases_with_nothing_profiled_divides_by_one) {
  roofkit::inject::replay_phases phases;
  phases.add_save(0.25);
  const std::string out = phases.report(roofkit::profiler_stats{}, 0, 0);
  EXPECT_TRUE(
      std::regex_search(out, std::regex(R"(checkpoint save +0\.250 s +250\.000 ms/launch)")))
      << out;
  EXPECT_NE(out.find("0 module loads read in 0.000 s; 0 callbacks took 0.000 s"), std::string::npos)
      << out;
}

} // namespace

TEST(run_meter, profiler_stats_add_every_field) {
  roofkit::profiler_stats a;
  roofkit::profiler_stats b;
  a.calls = 1;
  b.calls = 2;
  a.passes = 4;
  b.passes = 8;
  double* fields_a[] = {&a.setup_s, &a.passes_s, &a.decode_s,      &a.before_s,     &a.start_s,
                        &a.body_s,  &a.flush_s,  &a.issue_s,       &a.wait_s,       &a.stop_s,
                        &a.image_s, &a.config_s, &a.first_start_s, &a.ride_issue_s, &a.session_s};
  double* fields_b[] = {&b.setup_s, &b.passes_s, &b.decode_s,      &b.before_s,     &b.start_s,
                        &b.body_s,  &b.flush_s,  &b.issue_s,       &b.wait_s,       &b.stop_s,
                        &b.image_s, &b.config_s, &b.first_start_s, &b.ride_issue_s, &b.session_s};
  a.steps_issued = 10;
  b.steps_issued = 20;
  a.ride_steps_issued = 1;
  b.ride_steps_issued = 2;
  a.issue_by_pass = {1.0, 2.0};
  b.issue_by_pass = {10.0, 20.0, 30.0};
  a.image_bytes = 5;
  b.image_bytes = 7;
  for (std::size_t i = 0; i < std::size(fields_a); ++i) {
    *fields_a[i] = 1.0 + static_cast<double>(i);
    *fields_b[i] = 100.0 * (1.0 + static_cast<double>(i));
  }
  a += b;
  EXPECT_EQ(a.calls, 3);
  EXPECT_EQ(a.passes, 12);
  EXPECT_EQ(a.image_bytes, 7u) << "the larger image, not a sum";
  EXPECT_EQ(a.steps_issued, 30);
  EXPECT_EQ(a.ride_steps_issued, 3);
  EXPECT_EQ(a.issue_by_pass, (std::vector<double>{11.0, 22.0, 30.0})) << "pass by pass";
  for (std::size_t i = 0; i < std::size(fields_a); ++i)
    EXPECT_DOUBLE_EQ(*fields_a[i], 101.0 * (1.0 + static_cast<double>(i))) << "field " << i;
  EXPECT_EQ(sizeof(roofkit::profiler_stats),
            2 * sizeof(int) + std::size(fields_a) * sizeof(double) + sizeof(std::size_t) +
                2 * sizeof(std::int64_t) + sizeof(std::vector<double>))
      << "a field was added: add it to operator+= and to this test";
}

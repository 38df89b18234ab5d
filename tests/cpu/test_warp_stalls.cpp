// Warp stalls (profile --stalls): CUPTI's reason names, the stall records, their place on the
// run's kernels, and the diagnosis of a kernel far below its roofs (issue 37).
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "roofkit/app_profile.hpp"
#include "roofkit/diagnosis.hpp"
#include "roofkit/profiler.hpp"
#include "roofkit/results.hpp"
#include "test_support.hpp"

namespace {

using namespace roofkit;

TEST(WarpStalls, ReasonKeysDropCuptisPrefixAndNotIssuedSuffix) {
  EXPECT_EQ(stall_reason_key("smsp__pcsamp_warps_issue_stalled_long_scoreboard"),
            "long_scoreboard");
  EXPECT_EQ(stall_reason_key("smsp__pcsamp_warps_issue_stalled_long_scoreboard_not_issued"),
            "long_scoreboard");
  EXPECT_EQ(stall_reason_key("smsp__pcsamp_warps_issue_stalled_not_selected"), "not_selected");
  EXPECT_EQ(stall_reason_key("smsp__pcsamp_sample_count"), "smsp__pcsamp_sample_count");
}

TEST(WarpStalls, RecordsSumAcrossProcessesAndKeepTheDroppedSamples) {
  const std::string text = stall_line("_Z4axpyPf", {{"long_scoreboard", 30}, {"wait", 5}}, 7, 11) +
                           stall_line("_Z4axpyPf", {{"long_scoreboard", 12}}, 1, 12) +
                           stall_line("_Z3sumPf", {{"barrier", 9}}, 7, 11) + end_line(3, 11) +
                           end_line(2, 12);
  const profile_log log = parse_profile_log(text);
  ASSERT_EQ(log.stalls.size(), 2u);
  EXPECT_EQ(log.stalls.at("_Z4axpyPf").at("long_scoreboard"), 42u);
  EXPECT_EQ(log.stalls.at("_Z4axpyPf").at("wait"), 5u);
  EXPECT_EQ(log.stalls.at("_Z3sumPf").at("barrier"), 9u);
  EXPECT_EQ(log.stall_dropped.at(11), 7u);
  EXPECT_EQ(log.stall_dropped.at(12), 1u);
}

TEST(WarpStalls, AttachedByMangledNameElseByName) {
  run r;
  r.kernels.resize(3);
  r.kernels[0].name = "axpy(float*)";
  r.kernels[0].mangled_name = "_Z4axpyPf";
  r.kernels[1].name = "triton_poi_0";
  r.kernels[2].name = "other(int)";
  r.kernels[2].mangled_name = "_Z5otheri";
  const stall_totals stalls = {{"_Z4axpyPf", {{"long_scoreboard", 30}}},
                               {"triton_poi_0", {{"barrier", 4}, {"wait", 2}}}};
  EXPECT_EQ(attach_stalls(r, stalls), 2u);
  EXPECT_EQ(r.kernels[0].counters.at("roofkit__stall__long_scoreboard"), 30);
  EXPECT_EQ(r.kernels[1].counters.at("roofkit__stall__barrier"), 4);
  EXPECT_EQ(r.kernels[1].counters.at("roofkit__stall__wait"), 2);
  EXPECT_TRUE(r.kernels[2].counters.empty());
}

// A kernel of the recorded run (the coalesced copy by default), placed far below its roof, with
// these stall samples.
kernel_diagnosis stalled_copy(const std::map<std::string, double>& samples, double pct,
                              const std::string& kernel = "global/coalesced") {
  run r = test_support::recorded_h100_run();
  std::size_t i = 0;
  while (i < r.kernels.size() && r.kernels[i].name != kernel)
    ++i;
  EXPECT_LT(i, r.kernels.size());
  for (const auto& [reason, n] : samples)
    r.kernels[i].counters[std::string(stall_counter_prefix) + reason] = n;
  auto pl = analyze(r)[i];
  pl.pct_of_roof = pct;
  return diagnose_kernel(r, i, pl).value_or(kernel_diagnosis{});
}

const diagnosis_finding* stall_finding_of(const kernel_diagnosis& d) {
  for (const auto& f : d.findings)
    if (f.kind == "warp_stalls")
      return &f;
  return nullptr;
}

TEST(WarpStalls, FarBelowTheRoofTheLargestWaitNamesTheLimiter) {
  const auto barrier = stalled_copy(
      {{"barrier", 700}, {"membar", 100}, {"long_scoreboard", 150}, {"selected", 50}}, 20);
  const auto* f = stall_finding_of(barrier);
  ASSERT_NE(f, nullptr) << barrier.verdict;
  EXPECT_EQ(f->evidence_text.at("limiter"), "synchronization");
  EXPECT_NEAR(f->evidence.at("limiter_share"), 0.8, 1e-12);
  EXPECT_NEAR(f->gain, 0.8 * 0.8, 1e-12);
  EXPECT_NEAR(f->evidence.at("stall_samples"), 1000, 1e-12);
  EXPECT_NEAR(f->evidence.at("stall_share_barrier"), 0.7, 1e-12);
  EXPECT_NE(f->text.find("70% waiting at __syncthreads barriers (barrier)"), std::string::npos)
      << f->text;
  EXPECT_EQ(barrier.limiter, "synchronization") << barrier.verdict;
  EXPECT_NE(barrier.verdict.find("__syncthreads"), std::string::npos) << barrier.verdict;
  EXPECT_NE(barrier.try_first.find("__syncthreads"), std::string::npos);
  for (const auto& g : barrier.findings)
    EXPECT_NE(g.kind, "unknown") << "the samples explain the gap";

  const auto latency = stalled_copy({{"long_scoreboard", 600}, {"lg_throttle", 100}}, 20);
  EXPECT_EQ(stall_finding_of(latency)->evidence_text.at("limiter"), "latency_hiding");
  const auto shared = stalled_copy(
      {{"mio_throttle", 300}, {"short_scoreboard", 300}, {"long_scoreboard", 400}}, 20);
  EXPECT_EQ(stall_finding_of(shared)->evidence_text.at("limiter"), "shared_memory");
}

// A wait is named after its cause when the findings hold one: warps waiting on global memory in
// a kernel that wastes sectors are an uncoalesced kernel (the thing to change).
TEST(WarpStalls, AWaitOnGlobalMemoryIsNamedAfterTheWastedSectors) {
  const std::map<std::string, double> memory = {{"long_scoreboard", 800}, {"selected", 200}};
  const auto coalesced = stalled_copy(memory, 20);
  EXPECT_EQ(coalesced.limiter, "latency_hiding") << coalesced.verdict;
  const auto strided = stalled_copy(memory, 20, "global/stride-32");
  EXPECT_EQ(stall_finding_of(strided)->evidence_text.at("limiter"), "latency_hiding");
  EXPECT_EQ(strided.limiter, "uncoalesced_access") << strided.verdict;
  // A larger wait on something else keeps its own name (0.95 of the samples x 0.95 of the time,
  // above the 78% of the sectors wasted).
  const auto barrier = stalled_copy({{"barrier", 950}, {"selected", 50}}, 5, "global/stride-32");
  EXPECT_EQ(barrier.limiter, "synchronization") << barrier.verdict;
}

TEST(WarpStalls, NearTheRoofOrWithoutSamplesThereIsNoStallFinding) {
  EXPECT_EQ(stall_finding_of(stalled_copy({{"barrier", 700}}, 85)), nullptr);
  EXPECT_EQ(stall_finding_of(stalled_copy({}, 20)), nullptr);
}

} // namespace

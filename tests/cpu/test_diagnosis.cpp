// The diagnosis on the recorded bundled run (data/runs/h100-sxm.json): each seed claim's kernel
// gets the limiter its article gives, from its counters, launch and placement (issue 37).
#include <algorithm>
#include <limits>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "roofkit/core.hpp"
#include "roofkit/diagnosis.hpp"
#include "roofkit/results.hpp"
#include "test_support.hpp"

namespace {

using namespace roofkit;

const run& h100_run() { return test_support::recorded_h100_run(); }

std::size_t index_of(const run& r, const std::string& name) {
  for (std::size_t i = 0; i < r.kernels.size(); ++i)
    if (r.kernels[i].name == name)
      return i;
  ADD_FAILURE() << name << " not in the run";
  return 0;
}

kernel_diagnosis diagnosis_of(const run& r, const std::string& name) {
  const auto placements = analyze(r);
  const std::size_t i = index_of(r, name);
  const auto d = diagnose_kernel(r, i, placements[i]);
  EXPECT_TRUE(d.has_value()) << name;
  return d.value_or(kernel_diagnosis{});
}

const diagnosis_finding* finding(const kernel_diagnosis& d, const std::string& kind) {
  for (const auto& f : d.findings)
    if (f.kind == kind)
      return &f;
  return nullptr;
}

TEST(Diagnosis, StridedAndColumnMajorAccessIsUncoalescedWithSectorsPerRequest) {
  for (const char* name :
       {"global/stride-32", "global/stride-16", "global/stride-8", "global/matrix-column-major"}) {
    const auto d = diagnosis_of(h100_run(), name);
    EXPECT_EQ(d.limiter, "uncoalesced_access") << name << ": " << d.verdict;
    const auto* f = finding(d, "uncoalesced_access");
    ASSERT_NE(f, nullptr) << name;
    EXPECT_GT(f->evidence.at("sectors_per_request"), 4.5) << name;
    EXPECT_DOUBLE_EQ(f->evidence.at("ideal_sectors_per_request"), 4) << name;
  }
  // Stride 32 loads touch a sector per thread: 32 per request, 8x the 4 a coalesced load needs.
  const auto s32 = diagnosis_of(h100_run(), "global/stride-32");
  EXPECT_NEAR(finding(s32, "uncoalesced_access")->evidence.at("sectors_per_request_ld"), 32, 0.1);
  const auto col = diagnosis_of(h100_run(), "global/matrix-column-major");
  EXPECT_NEAR(finding(col, "uncoalesced_access")->evidence.at("sectors_per_request"), 32, 0.1);
  // Their coalesced twins are not.
  for (const char* name : {"global/coalesced", "global/matrix-row-major"})
    EXPECT_EQ(finding(diagnosis_of(h100_run(), name), "uncoalesced_access"), nullptr) << name;
}

TEST(Diagnosis, BankConflictKernelsGetTheirWays) {
  for (int ways : {2, 4, 8, 16, 32}) {
    const std::string name = "smem/bank-conflict-" + std::to_string(ways);
    const auto d = diagnosis_of(h100_run(), name);
    EXPECT_EQ(d.limiter, "bank_conflicts") << name << ": " << d.verdict;
    const auto* f = finding(d, "bank_conflicts");
    ASSERT_NE(f, nullptr) << name;
    EXPECT_NEAR(f->evidence.at("ways"), ways, 0.1 * ways) << name;
  }
  EXPECT_EQ(finding(diagnosis_of(h100_run(), "smem/bank-conflict-1"), "bank_conflicts"), nullptr);
}

TEST(Diagnosis, RegisterFoldKernelsAreRegisterLimitedWithTheCliff) {
  for (const char* name : {"registers/two-more-vars", "registers/maxnreg-33", "cliff/fold-cap"}) {
    const auto d = diagnosis_of(h100_run(), name);
    EXPECT_EQ(d.limiter, "occupancy_registers") << name << ": " << d.verdict;
    ASSERT_TRUE(d.occupancy) << name;
    EXPECT_DOUBLE_EQ(d.occupancy->theoretical, 0.75) << name;
    EXPECT_EQ(d.occupancy->limiter, "registers") << name;
    ASSERT_TRUE(d.occupancy->cliff) << name;
    // 512 threads: 32 registers fit 4 blocks (100%).
    EXPECT_EQ(d.occupancy->cliff->variable, "registers");
    EXPECT_EQ(d.occupancy->cliff->value, 32) << name;
    EXPECT_DOUBLE_EQ(d.occupancy->cliff->occupancy, 1.0) << name;
    EXPECT_EQ(d.occupancy->cliff->registers, 32) << name;
    EXPECT_EQ(d.occupancy->cliff->threads, 512) << name;
    EXPECT_EQ(d.occupancy->cliff->arch, "sm_90") << name;
  }
  // 31 registers: full occupancy, and the nearest cliff is above (33 registers, 75%).
  const auto d31 = diagnosis_of(h100_run(), "registers/31-regs");
  ASSERT_TRUE(d31.occupancy && d31.occupancy->cliff);
  EXPECT_DOUBLE_EQ(d31.occupancy->theoretical, 1.0);
  EXPECT_EQ(d31.occupancy->cliff->value, 33);
  EXPECT_DOUBLE_EQ(d31.occupancy->cliff->occupancy, 0.75);
  EXPECT_EQ(finding(d31, "occupancy_registers"), nullptr);
}

TEST(Diagnosis, SpillKernelIsLocalMemory) {
  const auto d = diagnosis_of(h100_run(), "registers/spill");
  EXPECT_EQ(d.limiter, "local_memory") << d.verdict;
  EXPECT_EQ(finding(d, "local_memory")->evidence.at("local_bytes_per_thread"), 64);
  EXPECT_GT(finding(d, "local_memory")->evidence.at("local_share_of_l1_bytes"), 0.5);
  EXPECT_EQ(finding(diagnosis_of(h100_run(), "registers/31-regs"), "local_memory"), nullptr);
}

TEST(Diagnosis, TinyLaunchesAreLaunchOverhead) {
  for (const char* name :
       {"divergence/boundary-100", "divergence/boundary-1000", "divergence/boundary-10000"}) {
    const auto d = diagnosis_of(h100_run(), name);
    EXPECT_EQ(d.limiter, "launch_overhead") << name << ": " << d.verdict;
    EXPECT_LT(finding(d, "launch_overhead")->evidence.at("waves"), 0.1) << name;
  }
  // A big grid-stride reduction is not.
  EXPECT_EQ(finding(diagnosis_of(h100_run(), "reduce/two-pass"), "launch_overhead"), nullptr);
}

// Launch overhead claims only the fixed cost: the run's shortest kernel time over this one's.
TEST(Diagnosis, LaunchOverheadClaimsTheRunsShortestKernelTimeOverTheKernels) {
  run r = h100_run();
  const std::size_t i = index_of(r, "divergence/boundary-100");
  double floor = 0;
  for (const auto& k : r.kernels) {
    const double t = k.gpu_time_s.value_or(k.time.median_s);
    if (t > 0 && (floor == 0 || t < floor))
      floor = t;
  }
  const double t = r.kernels[i].gpu_time_s.value_or(r.kernels[i].time.median_s);
  ASSERT_GT(floor, 0);
  const auto d = diagnosis_of(r, "divergence/boundary-100");
  const auto* f = finding(d, "launch_overhead");
  ASSERT_NE(f, nullptr);
  EXPECT_DOUBLE_EQ(f->evidence.at("launch_floor_s"), floor);
  EXPECT_LE(f->gain, floor / t + 1e-12);
  // Three times as long with the same launch: a third of the time at most.
  r.kernels[i].gpu_time_s = 3 * floor;
  r.kernels[i].time.median_s = 3 * floor;
  const auto longer = diagnosis_of(r, "divergence/boundary-100");
  const auto* slower = finding(longer, "launch_overhead");
  ASSERT_NE(slower, nullptr);
  EXPECT_NEAR(slower->gain, 1.0 / 3, 1e-9);
  EXPECT_NE(slower->text.find("up to 33% of this one"), std::string::npos) << slower->text;
}

TEST(Diagnosis, ScalarCopyLacksBytesInFlightAndInt4CopyIsNearTheRoof) {
  const auto scalar = diagnosis_of(h100_run(), "vector/copy-scalar");
  EXPECT_EQ(scalar.limiter, "latency_hiding") << scalar.verdict;
  const auto* f = finding(scalar, "latency_hiding");
  ASSERT_NE(f, nullptr);
  EXPECT_LT(f->evidence.at("bytes_in_flight"), f->evidence.at("bytes_in_flight_needed"));
  EXPECT_DOUBLE_EQ(f->evidence.at("bytes_per_load"), 128);
  const auto int4 = diagnosis_of(h100_run(), "vector/copy-int4");
  EXPECT_EQ(int4.limiter, "dram_bandwidth") << int4.verdict;
  EXPECT_EQ(finding(int4, "latency_hiding"), nullptr);
  EXPECT_LT(int4.findings.front().gain, 0.15);
  EXPECT_GT(int4.pct_of_roof, 80);
}

TEST(Diagnosis, RankedByGainAndEveryBundledKernelPlacedHasOne) {
  const run& r = h100_run();
  const auto placements = analyze(r);
  const auto all = diagnose_run(r, placements);
  int diagnosed = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (!all[i])
      continue;
    ++diagnosed;
    ASSERT_FALSE(all[i]->findings.empty()) << r.kernels[i].name;
    for (std::size_t j = 1; j < all[i]->findings.size(); ++j)
      EXPECT_GE(all[i]->findings[j - 1].gain, all[i]->findings[j].gain) << r.kernels[i].name;
    for (const auto& f : all[i]->findings) {
      EXPECT_GE(f.gain, 0) << r.kernels[i].name;
      EXPECT_LE(f.gain, 1) << r.kernels[i].name;
    }
  }
  EXPECT_GE(diagnosed, 60);
}

TEST(Diagnosis, ApplicationRunDiagnosesKernelsAboveOnePercent) {
  const run r =
      load_run(std::string(ROOFKIT_TEST_SOURCE_DIR) + "/data/runs/h100-torch-ops-profile.json");
  const auto all = diagnose_run(r, analyze(r));
  for (std::size_t i = 0; i < r.kernels.size(); ++i) {
    const auto share = app_time_share(r.kernels[i]);
    ASSERT_TRUE(share);
    EXPECT_EQ(all[i].has_value(), *share >= 0.01 && r.kernels[i].status == "ok")
        << r.kernels[i].name;
  }
}

TEST(Diagnosis, ExplainNamesTheCliffCommand) {
  const run& r = h100_run();
  const auto idx = find_kernels(r, "registers/maxnreg-33");
  ASSERT_EQ(idx.size(), 1u);
  const std::string text = explain_kernel(r, idx[0], [](const diagnosis_cliff& c) {
    return "calc " + c.arch + " " + std::to_string(c.threads) + " " + std::to_string(c.registers);
  });
  EXPECT_NE(text.find("verdict (occupancy_registers)"), std::string::npos) << text;
  EXPECT_NE(text.find("test it: calc sm_90 512 32"), std::string::npos) << text;
  EXPECT_THROW(find_kernels(r, "no-such-kernel"), roofkit::error);
}

// A kernel of the recorded run with its counters changed, diagnosed against its own placement.
kernel_diagnosis rediagnosed(const std::string& name, const std::map<std::string, double>& set,
                             bool drop_minimal = false) {
  run r = h100_run();
  const std::size_t i = index_of(r, name);
  for (const auto& [k, v] : set)
    r.kernels[i].counters[k] = v;
  if (drop_minimal)
    r.kernels[i].minimal_bytes.reset();
  const auto placements = analyze(r);
  return diagnose_kernel(r, i, placements[i]).value_or(kernel_diagnosis{});
}

TEST(Diagnosis, UncoalescedLoadsAreFoundBesideCoalescedStores) {
  // Loads at 32 sectors per request, stores at 4, and no minimal bytes: the loads alone are
  // judged against 16 (the widest access), so half of their sectors are excess: 16 of 36.
  const double req = 1e6;
  const auto d =
      rediagnosed("global/coalesced",
                  {{"smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum", 32 * req},
                   {"smsp__sass_inst_executed_op_global_ld.sum", req},
                   {"smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum", 4 * req},
                   {"smsp__sass_inst_executed_op_global_st.sum", req}},
                  true);
  const auto* f = finding(d, "uncoalesced_access");
  ASSERT_NE(f, nullptr) << d.verdict;
  EXPECT_NEAR(f->gain, 16.0 / 36.0, 1e-9);
  EXPECT_NEAR(f->evidence.at("sectors_per_request_ld"), 32, 1e-9);
  EXPECT_NEAR(f->evidence.at("sectors_per_request_st"), 4, 1e-9);
}

// The counters of one kernel's global accesses, per request: sectors and the bytes asked for.
std::map<std::string, double> global_access(double ld_sectors, double ld_bytes, double st_sectors,
                                            double st_bytes) {
  const double req = 1e6;
  return {{"smsp__sass_inst_executed_op_global_ld.sum", req},
          {"smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum", ld_sectors * req},
          {"smsp__sass_data_bytes_mem_global_op_ld.sum", ld_bytes * req},
          {"smsp__sass_inst_executed_op_global_st.sum", req},
          {"smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum", st_sectors * req},
          {"smsp__sass_data_bytes_mem_global_op_st.sum", st_bytes * req}};
}

TEST(Diagnosis, UncoalescedBelowSixteenSectorsIsFoundFromTheBytesAsked) {
  // 4-byte loads at 10 sectors per request and 4-byte stores at 8 (a convolution's gather): 4
  // would do for each, so 10 of the 18 sectors are excess. Sectors per request alone (no minimal
  // bytes) cannot tell this from 16-byte accesses.
  const auto d = rediagnosed("global/coalesced", global_access(10, 128, 8, 128), true);
  const auto* f = finding(d, "uncoalesced_access");
  ASSERT_NE(f, nullptr) << d.verdict;
  EXPECT_NEAR(f->gain, 10.0 / 18.0, 1e-9);
  EXPECT_NEAR(f->evidence.at("ideal_sectors_per_request"), 4, 1e-9);
  EXPECT_NEAR(f->evidence.at("bytes_used_per_sector"), 256.0 / 18.0, 1e-9);
  EXPECT_NEAR(f->evidence.at("bytes_used_per_sector_ld"), 12.8, 1e-9);
  EXPECT_NEAR(f->evidence.at("bytes_used_per_sector_st"), 16, 1e-9);
  EXPECT_EQ(f->evidence_text.at("ideal_from"), "bytes_asked");
  EXPECT_NE(f->text.find("where 4.0 would do for the bytes its threads ask for"), std::string::npos)
      << f->text;
  auto without_bytes = global_access(10, 128, 8, 128);
  without_bytes["smsp__sass_data_bytes_mem_global_op_ld.sum"] =
      std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(finding(rediagnosed("global/coalesced", without_bytes, true), "uncoalesced_access"),
            nullptr)
      << "without the bytes asked, 10 sectors per request may be 16-byte accesses";
}

TEST(Diagnosis, UncoalescedCpAsyncLoadsCountBesideLoadsAndStores) {
  // Coalesced 4-byte loads and stores (4 sectors a request each) beside cp.async loads of 16
  // bytes a thread that touch 64 sectors a request where 16 would do: 48 of the 72 sectors are
  // excess.
  auto c = global_access(4, 128, 4, 128);
  c["smsp__sass_inst_executed_op_ldgsts.sum"] = 1e6;
  c["smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts.sum"] = 64e6;
  c["smsp__sass_data_bytes_mem_global_op_ldgsts.sum"] = 512e6;
  const auto d = rediagnosed("global/coalesced", c, true);
  const auto* f = finding(d, "uncoalesced_access");
  ASSERT_NE(f, nullptr) << d.verdict;
  EXPECT_NEAR(f->gain, 48.0 / 72.0, 1e-9);
  EXPECT_NEAR(f->evidence.at("sectors_per_request_ldgsts"), 64, 1e-9);
  EXPECT_NEAR(f->evidence.at("bytes_used_per_sector_ldgsts"), 8, 1e-9);
  EXPECT_NE(f->text.find("(loads 4.0, stores 4.0, cp.async 64.0)"), std::string::npos) << f->text;
  // Without cp.async launches the text keeps to loads and stores.
  const auto plain = rediagnosed("global/coalesced", global_access(10, 128, 8, 128), true);
  EXPECT_EQ(finding(plain, "uncoalesced_access")->evidence.count("sectors_per_request_ldgsts"), 0u);
}

TEST(Diagnosis, WideAndPartialAccessesAreNotUncoalesced) {
  // 16-byte accesses at 16 sectors per request are coalesced; 8-byte ones at 10 waste 20%,
  // under the 23% threshold.
  EXPECT_EQ(finding(rediagnosed("global/coalesced", global_access(16, 512, 16, 512), true),
                    "uncoalesced_access"),
            nullptr);
  EXPECT_EQ(finding(rediagnosed("global/coalesced", global_access(10, 256, 8, 256), true),
                    "uncoalesced_access"),
            nullptr);
  // One active thread per request reading 4 bytes needs one sector, not an eighth of one.
  EXPECT_EQ(finding(rediagnosed("global/coalesced", global_access(1, 4, 1, 4), true),
                    "uncoalesced_access"),
            nullptr);
  // The same thread touching 32 sectors per load: 31 of the 33 sectors are excess.
  const auto d = rediagnosed("global/coalesced", global_access(32, 4, 1, 4), true);
  const auto* f = finding(d, "uncoalesced_access");
  ASSERT_NE(f, nullptr) << d.verdict;
  EXPECT_NEAR(f->gain, 31.0 / 33.0, 1e-9);
}

TEST(Diagnosis, BankConflictsFromOneReplayInTen) {
  // 27% of the load wavefronts are conflicts (1.37 ways): flagged, worth 27% at most.
  const auto d = rediagnosed("smem/bank-conflict-1",
                             {{"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 1000},
                              {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 270},
                              {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", 0},
                              {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", 0}});
  const auto* f = finding(d, "bank_conflicts");
  ASSERT_NE(f, nullptr) << d.verdict;
  EXPECT_NEAR(f->gain, 0.27, 1e-9);
  EXPECT_NEAR(f->evidence.at("ways"), 1000.0 / 730.0, 1e-9);
  // 5% is not worth a finding.
  const auto few = rediagnosed("smem/bank-conflict-1",
                               {{"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 1000},
                                {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 50}});
  EXPECT_EQ(finding(few, "bank_conflicts"), nullptr);
}

TEST(Diagnosis, TooFewBytesInFlightFromAGridUnderOneWaveIsASmallGrid) {
  // The scalar copy runs many waves: more resident warps would raise its bytes in flight.
  const auto many = diagnosis_of(h100_run(), "vector/copy-scalar");
  const auto* f = finding(many, "latency_hiding");
  ASSERT_NE(f, nullptr);
  EXPECT_GT(f->evidence.at("waves"), 1);
  EXPECT_EQ(f->evidence_text.count("cause"), 0u);
  // The same launch with 132 blocks, one per SM where several fit: every block is resident from
  // the start, so only more blocks add warps. The limiter is the grid, and so is the advice.
  run r = h100_run();
  const std::size_t i = index_of(r, "vector/copy-scalar");
  r.kernels[i].launch.grid = {132, 1, 1};
  const auto few = diagnose_kernel(r, i, analyze(r)[i]);
  ASSERT_TRUE(few.has_value());
  const auto* g = finding(*few, "latency_hiding");
  ASSERT_NE(g, nullptr);
  EXPECT_LT(g->evidence.at("waves"), 1);
  EXPECT_EQ(g->evidence_text.at("cause"), "small_grid");
  EXPECT_EQ(few->limiter, "small_grid") << few->verdict;
  EXPECT_NE(few->verdict.find("132 blocks fill"), std::string::npos) << few->verdict;
  EXPECT_NE(few->try_first.find("more blocks"), std::string::npos) << few->try_first;
  // A grid that fills the wave (SMs x resident blocks per SM, as CUB sizes its one-wave grids)
  // has no slot for another block: the grid is not the cause, the loads per warp are.
  const int per_sm = few->occupancy->active_blocks;
  ASSERT_GT(per_sm, 0);
  for (const int empty : {0, per_sm - 1}) {
    r.kernels[i].launch.grid = {static_cast<unsigned>(132 * per_sm - empty), 1, 1};
    const auto full = diagnose_kernel(r, i, analyze(r)[i]);
    ASSERT_TRUE(full.has_value());
    const auto* h = finding(*full, "latency_hiding");
    ASSERT_NE(h, nullptr);
    EXPECT_EQ(h->evidence_text.count("cause"), 0u) << empty;
    EXPECT_EQ(full->limiter, "latency_hiding") << full->verdict;
  }
  // One SM's worth of slots empty: more blocks would add warps, so the grid is the cause.
  r.kernels[i].launch.grid = {static_cast<unsigned>(131 * per_sm), 1, 1};
  const auto short_one = diagnose_kernel(r, i, analyze(r)[i]);
  ASSERT_TRUE(short_one.has_value());
  EXPECT_EQ(short_one->limiter, "small_grid") << short_one->verdict;
}

TEST(Diagnosis, OccupancyGainIsTheLatencyBoundShareAndNotForBusyComputeKernels) {
  const run& r = h100_run();
  const std::size_t i = index_of(r, "registers/maxnreg-33");
  auto pl = analyze(r)[i];
  const auto theoretical = diagnosis_of(r, "registers/maxnreg-33").occupancy->theoretical;
  ASSERT_GT(theoretical, 0);
  ASSERT_LT(theoretical, 1);
  pl.compute_bound = false;
  pl.pct_of_roof = 100 * theoretical / 2; // twice the warps would still fit under the roof
  const auto latency = diagnose_kernel(r, i, pl);
  const auto* f = finding(*latency, "occupancy_registers");
  ASSERT_NE(f, nullptr);
  EXPECT_NEAR(f->gain, 1 - theoretical, 1e-9);
  // The same launch with one block per SM is resident whole: a higher limit adds no warps.
  run one_wave = r;
  one_wave.kernels[i].launch.grid = {static_cast<unsigned>(r.context.sm_count), 1, 1};
  EXPECT_EQ(finding(*diagnose_kernel(one_wave, i, pl), "occupancy_registers"), nullptr);
  // A compute-bound kernel at 76% of its roof keeps its pipes busy: occupancy is no finding,
  // and with nothing else worth 10% its limiter is the roof.
  pl.compute_bound = true;
  pl.bound = "fp32";
  pl.bound_label = "FP32";
  pl.pct_of_roof = 76;
  const auto busy = diagnose_kernel(r, i, pl);
  EXPECT_EQ(finding(*busy, "occupancy_registers"), nullptr);
  for (const auto& g : busy->findings)
    if (g.kind != "unknown" && g.gain >= 0.10)
      FAIL() << "unexpected finding " << g.kind;
  EXPECT_EQ(busy->limiter, "compute") << busy->verdict;
}

} // namespace

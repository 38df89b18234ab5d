// The bench's CPU side with the bundled suite's claims: the summary table, the seed-claim
// evaluation and the claims document (kernels/suite).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "roofkit/bench.hpp"
#include "roofkit/core.hpp"
#include "roofkit/profiler.hpp"
#include "roofkit/results.hpp"
#include "suite/claims_markdown.hpp"

namespace {

roofkit::kernel_result claimed_kernel(const std::string& name, double time_s,
                                      double minimal_bytes) {
  roofkit::kernel_result k;
  k.name = name;
  k.time.median_s = time_s;
  k.time.min_s = time_s;
  k.time.max_s = time_s;
  k.time.repetitions = 5;
  k.minimal_bytes = minimal_bytes;
  k.flops[roofkit::precision::fp32] = minimal_bytes / 8;
  k.bytes[roofkit::memory_level::dram] = minimal_bytes;
  k.source = roofkit::work_source::counters;
  return k;
}

roofkit::run stride_run() {
  roofkit::run r;
  roofkit::ceiling dram;
  dram.is_memory = true;
  dram.value = 3e12;
  r.ceilings.push_back(dram);
  roofkit::ceiling fp32;
  fp32.value = 60e12;
  r.ceilings.push_back(fp32);
  auto base = claimed_kernel("global/stride-1", 1e-3, 512e6); // 512 GB/s effective
  base.counters["smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum"] = 8e6;
  base.counters["smsp__sass_inst_executed_op_global_ld.sum"] = 2e6;
  base.counters["smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum"] = 8e6;
  base.counters["smsp__sass_inst_executed_op_global_ld.sum"] = 2e6;
  r.kernels.push_back(base);
  auto s32 = claimed_kernel("global/stride-32", 20e-3, 512e6); // 1/20 of the bandwidth
  s32.bytes[roofkit::memory_level::dram] = 8 * 512e6;
  s32.counters["smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum"] = 64e6;
  s32.counters["smsp__sass_inst_executed_op_global_ld.sum"] = 2e6;
  s32.counters["smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum"] = 64e6;
  s32.counters["smsp__sass_inst_executed_op_global_ld.sum"] = 2e6;
  r.kernels.push_back(s32);
  auto coalesced = base;
  coalesced.name = "global/coalesced";
  r.kernels.push_back(coalesced);
  return r;
}

const roofkit::claim_outcome& outcome(const std::vector<roofkit::claim_outcome>& all,
                                      const std::string& id) {
  for (const auto& o : all)
    if (o.claim->id == id)
      return o;
  throw std::runtime_error("no claim " + id);
}

TEST(bench_claims, bandwidth_ratio_is_measured_from_minimal_bytes_and_time) {
  const auto all = roofkit::evaluate_claims(stride_run());
  const auto& o = outcome(all, "stride-32-bandwidth");
  ASSERT_TRUE(o.value);
  EXPECT_NEAR(*o.value, 0.05, 1e-12); // (512e6 / 20e-3) / (512e6 / 1e-3)
  EXPECT_EQ(o.verdict, "holds");      // the claim holds at or below its threshold (0.08)
  EXPECT_NE(o.evidence.find("32.0 sectors/load"), std::string::npos) << o.evidence;
}

TEST(bench_claims, counter_quotient_uses_the_subjects_counters) {
  const auto all = roofkit::evaluate_claims(stride_run());
  const auto& o = outcome(all, "coalesced-sectors-per-request");
  ASSERT_TRUE(o.value);
  EXPECT_DOUBLE_EQ(*o.value, 32.0);
  ASSERT_TRUE(o.baseline_value);
  EXPECT_DOUBLE_EQ(*o.baseline_value, 4.0);
  EXPECT_EQ(o.verdict, "holds");
}

TEST(bench_claims, a_slow_stride_kernel_fails_the_claim_it_should_fail) {
  auto r = stride_run();
  r.kernels[1].time.median_s = 5e-3; // 20% of coalesced bandwidth: above the 8% threshold
  const auto all = roofkit::evaluate_claims(r);
  const auto& o = outcome(all, "stride-32-bandwidth");
  ASSERT_TRUE(o.value);
  EXPECT_NEAR(*o.value, 0.2, 1e-12);
  EXPECT_EQ(o.verdict, "does not hold");
}

TEST(bench_claims, missing_or_failed_kernels_are_not_measured) {
  auto r = stride_run();
  r.kernels[1].status = "failed";
  const auto all = roofkit::evaluate_claims(r);
  const auto& o = outcome(all, "stride-32-bandwidth");
  EXPECT_FALSE(o.value);
  EXPECT_EQ(o.verdict, "not measured");
  EXPECT_NE(o.evidence.find("global/stride-32 did not run or failed"), std::string::npos);
  // Every claim gets an outcome, in the registry's order.
  ASSERT_EQ(all.size(), roofkit::seed_claims().size());
  EXPECT_EQ(outcome(all, "gemm-tiling-traffic-32").verdict, "not measured");
}

TEST(bench_claims, zero_denominator_is_explained) {
  roofkit::run r;
  auto k = claimed_kernel("divergence/boundary-100", 1e-5, 800);
  k.counters["smsp__sass_branch_targets_threads_divergent.sum"] = 0;
  k.counters["smsp__sass_branch_targets.sum"] = 0;
  r.kernels.push_back(k);
  const auto all = roofkit::evaluate_claims(r);
  const auto& o = outcome(all, "boundary-divergence-100");
  EXPECT_EQ(o.verdict, "not measured");
  EXPECT_NE(o.evidence.find("smsp__sass_branch_targets.sum = 0"), std::string::npos)
      << "evidence: [" << o.evidence << "]";
}

TEST(bench_table, effective_bandwidth_dram_ratio_and_sectors) {
  auto r = stride_run();
  r.kernels[0].status = "failed";
  const auto t = roofkit::bench_table(r, roofkit::analyze(r));
  ASSERT_EQ(t.rows.size(), 3u);
  auto col = [&](const std::string& key) {
    for (std::size_t i = 0; i < t.columns.size(); ++i)
      if (t.columns[i].key == key)
        return i;
    throw std::runtime_error("no column " + key);
  };
  const auto& s32 = t.rows[1];
  EXPECT_NEAR(std::get<double>(s32[col("effective_gbs")]), 25.6, 1e-9); // 512e6 B / 20 ms
  EXPECT_NEAR(std::get<double>(s32[col("dram_over_minimal")]), 8.0, 1e-12);
  EXPECT_NEAR(std::get<double>(s32[col("ld_sectors_per_request")]), 32.0, 1e-12);
  EXPECT_EQ(std::get<std::string>(s32[col("bound")]), "dram");
  EXPECT_EQ(std::get<std::string>(t.rows[0][col("status")]), "FAILED: failed");
  EXPECT_TRUE(t.highlight[0]);
  EXPECT_FALSE(t.highlight[1]);
}

TEST(bench_claims, markdown_counts_verdicts_and_adds_notes) {
  const auto r = stride_run();
  const auto outcomes = roofkit::evaluate_claims(r);
  const std::string md = roofkit::kernels::claims_markdown(
      r, outcomes, "run.json", "roofline-cuda claims run.json --notes notes.json -o claims.md",
      {{"stride-32-bandwidth", "a reviewer's note"}}, "notes.json");
  EXPECT_NE(md.find("# Seed claims, measured"), std::string::npos);
  EXPECT_NE(md.find(std::to_string(outcomes.size()) + " claims: 2 hold on this GPU, 0 do not"),
            std::string::npos)
      << md.substr(0, 600);
  EXPECT_NE(md.find("- `stride-32-bandwidth` (holds): a reviewer's note"), std::string::npos);
  EXPECT_NE(md.find("Generated by `roofline-cuda claims run.json --notes notes.json -o "
                    "claims.md` from the run in `run.json`"),
            std::string::npos);
}

TEST(bench_claims, notes_file_rejects_unknown_ids_and_bad_json) {
  const auto dir = std::filesystem::temp_directory_path();
  const auto good = dir / "roofkit_notes_good.json", bad = dir / "roofkit_notes_bad.json",
             unknown = dir / "roofkit_notes_unknown.json";
  std::ofstream(good) << R"({"stride-32-bandwidth": "text"})";
  std::ofstream(bad) << R"({"stride-32-bandwidth": )";
  std::ofstream(unknown) << R"({"no-such-claim": "text"})";
  EXPECT_EQ(roofkit::load_claim_notes(good.string()).at("stride-32-bandwidth"), "text");
  for (const auto& p : {bad, unknown}) {
    try {
      roofkit::load_claim_notes(p.string());
      ADD_FAILURE() << "expected an error for " << p;
    } catch (const roofkit::error& e) {
      EXPECT_EQ(e.code(), roofkit::exit_code::usage);
    }
  }
}

TEST(bench_detail_metrics, coalescing_and_claim_counters_without_duplicates) {
  const auto names = roofkit::bench_detail_metrics();
  const std::set<std::string> unique(names.begin(), names.end());
  EXPECT_EQ(unique.size(), names.size());
  EXPECT_TRUE(unique.count("smsp__sass_inst_executed_op_global_ld.sum"));
  EXPECT_TRUE(unique.count("smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum"));
  EXPECT_TRUE(unique.count("dram__bytes_read.sum"));
}

// One set per kernel: every roofline metric and every detail counter, each once, required
// ones before the optional extras, which may only fill passes the required ones need anyway.
TEST(bench_metric_set, one_consistent_pass_set) {
  const auto s = roofkit::bench_metric_set();
  std::set<std::string> first_names;
  std::map<std::string, int> times;
  bool seen_optional = false;
  for (const auto& m : s.metrics) {
    first_names.insert(m.names.front());
    ++times[m.names.front()];
    if (m.optional) {
      seen_optional = true;
    } else {
      EXPECT_FALSE(seen_optional) << m.key << " (required) after an optional metric";
    }
  }
  for (const auto& m : roofkit::find_metric_set("roofline").metrics) {
    // NERSC's L2 tag bytes cost a pass of L2 programming of their own: left to the roofline sets.
    EXPECT_EQ(first_names.count(m.names.front()), m.key == "l2_tag_bytes" ? 0U : 1U) << m.key;
  }
  for (const auto& n : roofkit::bench_detail_metrics()) {
    EXPECT_EQ(times[n], 1) << n << " must be collected exactly once";
  }
  EXPECT_EQ(s.pass_budget, 4);
}

// Found on the H100 with a PyTorch BF16 matmul: with 3 passes the HGMMA BF16 counter did not fit
// beside the detail counters and cuBLAS's BF16 GEMM had no FLOPs. One more pass, for FLOP
// counters only, holds every tensor path of the chip (with the dense `_sparsity_off` counters);
// a chip that fits everything in 3 stays at 3.
TEST(bench_metric_set, holds_the_warpgroup_tensor_paths_in_one_more_pass) {
  const auto gh100 =
      roofkit::resolve_metric_set(roofkit::bench_metric_set(), roofkit::cupti_catalog("GH100"));
  EXPECT_EQ(gh100.passes, 4);
  for (const char* key : {"hgmma_fp16", "hgmma_bf16", "hgmma_tf32", "qgmma_fp8", "igmma_int8",
                          "hmma_fp16_f32", "hmma_bf16", "hmma_tf32", "hmma_fp16_f16", "dmma_fp64"})
    EXPECT_NE(gh100.find(key), nullptr) << key;
  // Dense work only: structured-sparse MMAs are not bounded by a dense roof.
  EXPECT_EQ(gh100.find("hgmma_fp16")->name,
            "sm__ops_path_tensor_op_hgmma_src_fp16_sparsity_off.sum");
  EXPECT_EQ(gh100.find("dmma_fp64")->name, "sm__ops_path_tensor_src_fp64.sum") << "no sparse DMMA";
  EXPECT_EQ(
      roofkit::resolve_metric_set(roofkit::bench_metric_set(), roofkit::cupti_catalog("TU102"))
          .passes,
      3);
}

// Every launch profiled (issue 39): on GH100 the per-launch set leaves out achieved occupancy,
// the L1 tag bytes and the INT8 mma.sync path, and so needs 3 passes instead of 4, of which two,
// not three, hold SM counters (a range costs about 1 ms in each of those). It keeps every other
// tensor path, the L1 and shared-memory traffic and the bank conflicts. On a chip where it saves
// no pass the profiler keeps the full set.
TEST(bench_metric_set, per_launch_set_saves_a_pass_on_gh100_and_keeps_the_tensor_paths) {
  const roofkit::cupti_catalog gh100("GH100");
  const auto full = roofkit::resolve_metric_set(roofkit::bench_metric_set(), gh100);
  const auto lean = roofkit::resolve_metric_set(roofkit::bench_per_launch_metric_set(), gh100);
  EXPECT_EQ(full.passes, 4);
  EXPECT_EQ(lean.passes, 3);
  EXPECT_NE(full.find("occupancy"), nullptr);
  for (const auto& key : roofkit::shape_detail_keys())
    EXPECT_EQ(lean.find(key), nullptr) << key;
  for (const char* key : {"hgmma_fp16", "hgmma_bf16", "hgmma_tf32", "qgmma_fp8", "igmma_int8",
                          "hmma_fp16_f32", "hmma_bf16", "hmma_tf32", "hmma_fp16_f16", "dmma_fp64",
                          "l1_bytes", "l1_shared_ld", "l1_shared_st", "dram_read", "dram_write"})
    EXPECT_NE(lean.find(key), nullptr) << key;
  const auto names = lean.names();
  EXPECT_NE(std::find(names.begin(), names.end(),
                      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
            names.end());
  // Nothing else is left out but the suite's claim counters (this process registers them; an
  // application profile does not).
  std::set<std::string> claim_counters;
  for (const auto& c : roofkit::seed_claims())
    claim_counters.insert(c.counters.begin(), c.counters.end());
  std::size_t kept = 0;
  for (const auto& m : full.metrics) {
    const bool detail = std::count(roofkit::shape_detail_keys().begin(),
                                   roofkit::shape_detail_keys().end(), m.spec.key) > 0;
    const bool in_lean = lean.find(m.spec.key) != nullptr;
    kept += in_lean;
    if (!in_lean) {
      EXPECT_TRUE(detail || claim_counters.count(m.name)) << m.spec.key;
    }
  }
  EXPECT_EQ(kept, lean.metrics.size());
  EXPECT_GE(lean.metrics.size(), 41u);
  const roofkit::cupti_catalog ad102("AD102");
  EXPECT_EQ(roofkit::resolve_metric_set(roofkit::bench_per_launch_metric_set(), ad102).passes,
            roofkit::resolve_metric_set(roofkit::bench_metric_set(), ad102).passes);
}

// A shape whose full-set launches counted INT8 mma.sync ops needs the full set on every launch;
// FLOPs of the paths the per-launch set keeps, or a zero count, do not.
TEST(bench_metric_set, a_shape_that_counts_a_left_out_flop_path_keeps_the_full_set) {
  // Every tensor path (the bench set of an application profile holds INT8 mma.sync on GH100).
  const auto full = roofkit::resolve_metric_set(roofkit::find_metric_set("roofline-full"),
                                                roofkit::cupti_catalog("GH100"));
  ASSERT_NE(full.find("imma_int8"), nullptr);
  const std::string imma = full.find("imma_int8")->name;
  const std::string hmma = full.find("hmma_bf16")->name;
  EXPECT_TRUE(roofkit::per_launch_set_misses(full, {{imma, 4096.0}, {hmma, 0.0}}));
  EXPECT_FALSE(roofkit::per_launch_set_misses(full, {{imma, 0.0}, {hmma, 4096.0}}));
  EXPECT_FALSE(roofkit::per_launch_set_misses(full, {{"l1tex__t_bytes.sum", 1e6}}))
      << "a count, not FLOPs: the shape's first launches give it";
  EXPECT_FALSE(roofkit::per_launch_set_misses(full, {}));
}

TEST(bench_timing, overhead_dominated_kernels_are_flagged) {
  roofkit::kernel_result k;
  k.time.median_s = 4e-6;
  EXPECT_TRUE(roofkit::overhead_dominated(k)) << "no counters: under 5 us";
  k.time.median_s = 6e-6;
  EXPECT_FALSE(roofkit::overhead_dominated(k));
  k.gpu_time_s = 3e-6;
  EXPECT_TRUE(roofkit::overhead_dominated(k)) << "6 us timed for 3 us of GPU work";
  k.gpu_time_s = 5e-6;
  EXPECT_FALSE(roofkit::overhead_dominated(k));
  k.time.median_s = 0;
  EXPECT_FALSE(roofkit::overhead_dominated(k)) << "untimed";
}

TEST(bench_flops, unplaced_precisions_and_atomic_fallback) {
  roofkit::kernel_result k = claimed_kernel("global/stride-1", 1e-3, 8);
  k.flops = {{roofkit::precision::fp32, 100.0}, {roofkit::precision::fp16, 400.0}};
  roofkit::reconcile_flops(k, {{roofkit::precision::fp32, 100.0}});
  ASSERT_EQ(k.flops.size(), 1u);
  EXPECT_DOUBLE_EQ(k.flops.at(roofkit::precision::fp32), 100.0);
  EXPECT_DOUBLE_EQ(k.counters.at("roofkit__unplaced_flops_fp16"), 400.0);
  EXPECT_NE(k.message.find("does not have"), std::string::npos) << k.message;

  roofkit::kernel_result atomic = claimed_kernel("reduce/atomic", 1e-3, 8);
  atomic.flops.clear();
  roofkit::reconcile_flops(atomic, {{roofkit::precision::fp32, 64.0}});
  EXPECT_DOUBLE_EQ(atomic.flops.at(roofkit::precision::fp32), 64.0);
  EXPECT_NE(atomic.message.find("RED"), std::string::npos) << atomic.message;

  roofkit::kernel_result copy = claimed_kernel("vector/copy-int4", 1e-3, 8);
  copy.flops = {{roofkit::precision::fp16, 4.0}};
  roofkit::reconcile_flops(copy, {});
  EXPECT_TRUE(copy.flops.empty()); // a copy stays a copy
}

} // namespace

// Metric sets: resolution per chip through the real CUPTI host API (no GPU needed), the pass
// budget with a fake catalog, and the derivation of roofline quantities.
#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "roofkit/core.hpp"
#include "roofkit/profiler.hpp"

namespace {

using roofkit::cupti_catalog;
using roofkit::find_metric_set;
using roofkit::resolve_metric_set;

std::string name_of(const roofkit::resolved_set& s, const std::string& key) {
  const auto* m = s.find(key);
  return m ? m->name : std::string("<dropped>");
}

TEST(metric_host, knows_the_chips_we_document) {
  const auto chips = roofkit::supported_chips();
  for (const char* c : {"GA100", "AD102", "GH100", "GB100", "GB202", "TU102"})
    EXPECT_NE(std::find(chips.begin(), chips.end(), c), chips.end()) << c;
  EXPECT_EQ(roofkit::normalize_chip_name("gh100"), "GH100");
  try {
    roofkit::normalize_chip_name("GX999");
    FAIL() << "no error for an unknown chip";
  } catch (const roofkit::error& e) {
    EXPECT_EQ(e.code(), roofkit::exit_code::usage);
    EXPECT_NE(std::string(e.what()).find("'GX999'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("GH100"), std::string::npos) << "lists valid chips";
  }
}

TEST(metric_host, validates_names_and_counts_passes) {
  cupti_catalog gh100("GH100");
  EXPECT_TRUE(gh100.has("dram__bytes_read.sum"));
  EXPECT_FALSE(gh100.has("dram__bytes_op_read.sum"));
  EXPECT_FALSE(gh100.has("no__such_metric.sum"));
  EXPECT_NE(gh100.description("dram__bytes_read.sum").find("DRAM"), std::string::npos);
  EXPECT_EQ(gh100.passes({"dram__bytes_read.sum"}), 1);
  // SASS-patched instruction counters take their own pass next to hardware counters.
  EXPECT_EQ(
      gh100.passes({"sm__sass_thread_inst_executed_op_ffma_pred_on.sum", "dram__bytes_read.sum"}),
      2);
  // The HMMA ops counters share one multiplexed counter: two variants need two passes.
  EXPECT_EQ(gh100.passes({"sm__ops_path_tensor_op_hmma_src_fp16_dst_fp32.sum",
                          "sm__ops_path_tensor_op_hmma_src_tf32_dst_fp32.sum"}),
            2);
}

// The blank image the profiler fills keeps each raw counter's total, not a value per SM, SMSP or
// L2 slice: CUPTI's own image for the profile set holds some 600 KiB a range on GH100.
TEST(metric_host, a_totals_image_holds_a_few_kib_a_range) {
  cupti_catalog gh100("GH100");
  const auto names = resolve_metric_set(roofkit::bench_metric_set(), gh100).names();
  const std::size_t one = gh100.totals_image(names, 1).size();
  const std::size_t many = gh100.totals_image(names, 257).size();
  ASSERT_GT(many, one);
  const double per_range = static_cast<double>(many - one) / 256;
  EXPECT_GT(per_range, 8.0 * 51) << "room for the set's 51 raw counters' totals";
  EXPECT_LT(per_range, 4096.0);
  EXPECT_LT(gh100.totals_image({"dram__bytes_read.sum"}, 257).size(), many);
}

// DRAM bytes are spelled differently on GB20x: the resolver picks each chip's name.
TEST(metric_sets, resolve_dram_names_per_chip) {
  const auto& roofline = find_metric_set("roofline");
  for (const char* chip : {"GA100", "AD102", "GH100", "GB100"}) {
    const auto s = resolve_metric_set(roofline, cupti_catalog(chip));
    EXPECT_EQ(name_of(s, "dram_read"), "dram__bytes_read.sum") << chip;
    EXPECT_EQ(name_of(s, "dram_write"), "dram__bytes_write.sum") << chip;
    EXPECT_TRUE(s.warnings().empty()) << chip << ": " << s.warnings().front();
  }
  const auto gb202 = resolve_metric_set(roofline, cupti_catalog("GB202"));
  EXPECT_EQ(name_of(gb202, "dram_read"), "dram__bytes_op_read.sum");
  EXPECT_EQ(name_of(gb202, "dram_write"), "dram__bytes_op_write.sum");
}

// Each level has one definition per chip generation, as ncu's hierarchical roofline sections.
TEST(metric_sets, level_definitions_follow_the_hierarchical_roofline) {
  const auto& roofline = find_metric_set("roofline");
  for (const char* chip : {"GH100", "GB100", "GB202"}) {
    const auto s = resolve_metric_set(roofline, cupti_catalog(chip));
    EXPECT_EQ(name_of(s, "l1_bytes"), "l1tex__lsu_writeback_active_mem_lgds.sum") << chip;
    EXPECT_EQ(name_of(s, "l2_bytes"), "lts__lts2xbar_cycles_active.sum") << chip;
  }
  for (const char* chip : {"TU102", "GA100", "AD102"}) {
    const auto s = resolve_metric_set(roofline, cupti_catalog(chip));
    EXPECT_EQ(name_of(s, "l1_bytes"), "l1tex__lsu_writeback_active_mem_lg.sum") << chip;
    EXPECT_EQ(name_of(s, "l2_bytes"), "lts__lts2xbar_cycles_active.sum") << chip;
  }
  const auto gh100 = resolve_metric_set(roofline, cupti_catalog("GH100"));
  EXPECT_DOUBLE_EQ(gh100.find("l1_bytes")->spec.weight, 128);
  // Shared memory is part of L1: its load and store wavefronts, 128 B each.
  for (const char* key : {"l1_shared_ld", "l1_shared_st"}) {
    ASSERT_NE(gh100.find(key), nullptr) << key;
    EXPECT_EQ(gh100.find(key)->spec.level, roofkit::memory_level::l1) << key;
    EXPECT_DOUBLE_EQ(gh100.find(key)->spec.weight, 128) << key;
  }
  EXPECT_EQ(name_of(gh100, "l1_shared_ld"), "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum");
  EXPECT_DOUBLE_EQ(gh100.find("l2_bytes")->spec.weight, 32);
  EXPECT_EQ(gh100.find("l1_bytes")->spec.level, roofkit::memory_level::l1);
  EXPECT_EQ(gh100.find("l2_bytes")->spec.level, roofkit::memory_level::l2);
}

// The whole hierarchical set fits in 3 passes on every chip we target (ncu: 17 on GH100).
TEST(metric_sets, roofline_set_is_three_passes_with_every_core_metric) {
  const auto& roofline = find_metric_set("roofline");
  for (const char* chip : {"GA100", "AD102", "GH100", "GB100", "GB202"}) {
    const auto s = resolve_metric_set(roofline, cupti_catalog(chip));
    EXPECT_EQ(s.passes, 3) << chip;
    for (const auto& spec : roofline.metrics) {
      if (!spec.optional) {
        EXPECT_NE(s.find(spec.key), nullptr) << chip << " lacks " << spec.key;
      }
    }
  }
}

TEST(metric_sets, tensor_paths_per_chip) {
  const auto& roofline = find_metric_set("roofline");
  const auto gh100 = resolve_metric_set(roofline, cupti_catalog("GH100"));
  // Hopper: with the dense (`_sparsity_off`) counters every warpgroup MMA path and every mma.sync
  // path but IMMA fit the budget beside the level counters. The family counters, which add the
  // sparse work, left TF32 warpgroup MMA, DMMA and two mma.sync paths out.
  for (const char* key : {"hgmma_fp16", "hgmma_bf16", "hgmma_tf32", "qgmma_fp8", "igmma_int8",
                          "hmma_fp16_f32", "hmma_bf16", "hmma_tf32", "hmma_fp16_f16", "dmma_fp64"})
    EXPECT_NE(gh100.find(key), nullptr) << key;
  EXPECT_EQ(name_of(gh100, "hmma_fp16_f32"),
            "sm__ops_path_tensor_op_hmma_src_fp16_dst_fp32_sparsity_off.sum");
  EXPECT_EQ(name_of(gh100, "dmma_fp64"), "sm__ops_path_tensor_src_fp64.sum") << "no sparse DMMA";
  std::set<std::string> over;
  for (const auto& d : gh100.dropped)
    if (d.reason == roofkit::drop_reason::over_budget)
      over.insert(d.spec.key);
  EXPECT_EQ(over, (std::set<std::string>{"imma_int8", "l1_tag_bytes"}));
  ASSERT_EQ(gh100.notes().size(), 1u);
  EXPECT_NE(gh100.notes()[0].find("imma_int8"), std::string::npos);

  // Ampere has no per-instruction counters: the summaries stand for HMMA.
  const auto ga100 = resolve_metric_set(roofline, cupti_catalog("GA100"));
  EXPECT_EQ(name_of(ga100, "hmma_fp16_f32"),
            "sm__ops_path_tensor_src_fp16_dst_fp32_sparsity_off.sum");
  EXPECT_EQ(ga100.find("hgmma_fp16"), nullptr);
  // Ada: FP16 and BF16 mma.sync fit; no FP64 tensor unit although CUPTI lists the counter.
  const auto ad102 = resolve_metric_set(roofline, cupti_catalog("AD102"));
  EXPECT_NE(ad102.find("hmma_bf16"), nullptr);
  EXPECT_EQ(ad102.find("dmma_fp64"), nullptr);
  EXPECT_EQ(ad102.find("qgmma_fp8"), nullptr);
  const auto ad102_full =
      resolve_metric_set(find_metric_set("roofline-full"), cupti_catalog("AD102"));
  EXPECT_EQ(name_of(ad102_full, "mma_fp8"), "sm__ops_path_tensor_src_fp8_sparsity_off.sum");
  EXPECT_EQ(ad102_full.find("dmma_fp64"), nullptr);
  // Blackwell datacenter: tcgen05 paths.
  const auto gb100 = resolve_metric_set(roofline, cupti_catalog("GB100"));
  EXPECT_EQ(name_of(gb100, "utc_bf16"),
            "sm__ops_path_tensor_op_utchmma_src_bf16_dst_fp32_sparsity_off.sum");
  // GB202 spells FP8 with its accumulator.
  const auto gb202 = resolve_metric_set(find_metric_set("roofline-full"), cupti_catalog("GB202"));
  EXPECT_EQ(name_of(gb202, "mma_fp8"), "sm__ops_path_tensor_src_fp8_dst_fp32_sparsity_off.sum");

  // roofline-full drops nothing for the budget.
  const auto full = resolve_metric_set(find_metric_set("roofline-full"), cupti_catalog("GH100"));
  EXPECT_NE(full.find("dmma_fp64"), nullptr);
  EXPECT_GT(full.passes, 3);
  EXPECT_LT(full.passes, 17) << "must stay well under ncu --set roofline";
}

TEST(metric_sets, coalescing_set_is_two_passes) {
  for (const char* chip : {"GA100", "AD102", "GH100", "GB202"}) {
    const auto s = resolve_metric_set(find_metric_set("coalescing"), cupti_catalog(chip));
    EXPECT_EQ(s.passes, 2) << chip;
    EXPECT_EQ(s.metrics.size(), 13u) << chip;
  }
}

TEST(metric_sets, unknown_set_lists_valid_names) {
  try {
    find_metric_set("rooflin");
    FAIL();
  } catch (const roofkit::error& e) {
    EXPECT_EQ(e.code(), roofkit::exit_code::usage);
    EXPECT_NE(std::string(e.what()).find("roofline, roofline-full, tensor, coalescing"),
              std::string::npos)
        << e.what();
  }
}

// A catalog that knows a fixed list and charges one pass per "group" of names.
class fake_catalog final : public roofkit::metric_catalog {
public:
  std::map<std::string, int> groups; // name -> pass group
  std::string chip() const override { return "FAKE"; }
  bool has(const std::string& n) const override { return groups.count(n) > 0; }
  std::string description(const std::string& n) const override { return "about " + n; }
  int passes(const std::vector<std::string>& names) const override {
    std::set<int> used;
    for (const auto& n : names)
      used.insert(groups.at(n));
    return static_cast<int>(used.size());
  }
};

roofkit::metric_spec spec(std::string key, std::vector<std::string> names, bool optional,
                          roofkit::metric_role role = roofkit::metric_role::flops) {
  roofkit::metric_spec m;
  m.key = std::move(key);
  m.names = std::move(names);
  m.optional = optional;
  m.role = role;
  return m;
}

TEST(metric_sets, budget_keeps_optional_metrics_in_order) {
  fake_catalog cat;
  cat.groups = {{"a", 1}, {"b_new", 2}, {"v", 4}, {"x", 3}, {"y", 2}, {"z", 4}, {"u", 3}};
  roofkit::metric_set_def def;
  def.name = "t";
  def.pass_budget = 3;
  const auto count = roofkit::metric_role::count;
  def.metrics = {spec("a", {"a"}, false),
                 spec("b", {"b_old", "b_new"}, false), // second spelling
                 spec("gone", {"nope"}, false),        // required, missing: warning
                 spec("v", {"v"}, true, count),        // not FLOPs: may not add a pass
                 spec("x", {"x"}, true),               // FLOPs, third pass: fits the budget
                 spec("z", {"z"}, true),               // fourth pass: over budget
                 spec("y", {"y"}, true),               // shares pass 2: fits after z
                 spec("u", {"u"}, true, count),        // not FLOPs, shares pass 3 with x: fits
                 spec("w", {"w"}, true)};              // optional, missing: quiet
  const auto s = resolve_metric_set(def, cat);
  EXPECT_EQ(s.names(), (std::vector<std::string>{"a", "b_new", "x", "y", "u"}));
  EXPECT_EQ(s.passes, 3);
  ASSERT_EQ(s.warnings().size(), 1u);
  EXPECT_NE(s.warnings()[0].find("'gone'"), std::string::npos);
  ASSERT_EQ(s.notes().size(), 1u);
  EXPECT_NE(s.notes()[0].find("left out v, z"), std::string::npos) << s.notes()[0];
  EXPECT_EQ(s.find("a")->nvidia_description, "about a");
}

TEST(cold_passes, only_counts_are_independent_of_the_cache_state) {
  using roofkit::independent_of_cache_state;
  for (const char* n :
       {"smsp__sass_inst_executed_op_global_ld.sum",
        "sm__sass_thread_inst_executed_op_ffma_pred_on.sum",
        "sm__ops_path_tensor_op_hgmma_src_bf16_dst_fp32_sparsity_off.sum", "l1tex__t_bytes.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "smsp__inst_executed.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"})
    EXPECT_TRUE(independent_of_cache_state(n)) << n;
  for (const char* n :
       {"dram__bytes_read.sum", "lts__t_sectors_srcunit_tex_op_read.sum", "gpu__time_duration.sum",
        "sm__cycles_elapsed.avg", "sm__warps_active.avg.pct_of_peak_sustained_active",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", "l1tex__t_sector_hit_rate.pct",
        "sm__inst_executed_pipe_tensor.avg.pct_of_peak_sustained_active",
        "smsp__inst_executed.avg.per_cycle_active", "l1tex__lsu_writeback_active_mem_lgds.sum",
        "lts__lts2xbar_cycles_active.sum", "l1tex__throughput.avg.pct_of_peak_sustained_active"})
    EXPECT_FALSE(independent_of_cache_state(n)) << n;
}

// A set of names with a pass count given by a rule.
class rule_catalog final : public roofkit::metric_catalog {
public:
  std::function<int(const std::vector<std::string>&)> rule;
  std::string chip() const override { return "RULE"; }
  bool has(const std::string&) const override { return true; }
  std::string description(const std::string&) const override { return ""; }
  int passes(const std::vector<std::string>& names) const override { return rule(names); }
};

roofkit::resolved_set set_of(const std::vector<std::string>& names, int passes) {
  roofkit::resolved_set s;
  for (const auto& n : names)
    s.metrics.push_back({spec(n, {n}, false), n, ""});
  s.passes = passes;
  return s;
}

TEST(cold_passes, cache_dependent_counters_go_first_with_the_counts_that_fit_beside_them) {
  fake_catalog cat; // one pass per group
  cat.groups = {{"dram__bytes_read.sum", 1},
                {"smsp__sass_inst_executed_op_global_ld.sum", 2},
                {"sm__ops_path_tensor_src_fp64.sum", 1},
                {"l1tex__t_bytes.sum", 3},
                {"gpu__time_duration.sum", 1}};
  std::vector<std::string> names;
  for (const auto& [n, g] : cat.groups)
    names.push_back(n);
  auto s = set_of(names, 3);
  roofkit::lay_out_cold_passes(s, cat);
  EXPECT_EQ(s.cold_passes, 1);
  EXPECT_EQ(std::set<std::string>(s.cold_names.begin(), s.cold_names.end()),
            (std::set<std::string>{"dram__bytes_read.sum", "gpu__time_duration.sum",
                                   "sm__ops_path_tensor_src_fp64.sum"}));
  const auto groups = s.config_groups();
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0], s.cold_names);
  EXPECT_EQ(
      std::set<std::string>(groups[1].begin(), groups[1].end()),
      (std::set<std::string>{"l1tex__t_bytes.sum", "smsp__sass_inst_executed_op_global_ld.sum"}));
  EXPECT_TRUE(s.needs_cold_l2(0));
  EXPECT_FALSE(s.needs_cold_l2(1));
  EXPECT_FALSE(s.needs_cold_l2(2));
}

TEST(cold_passes, one_group_when_two_would_need_more_passes_or_nothing_depends_on_the_cache) {
  // CUPTI packs everything into one pass, but the cold counter takes a pass of its own once
  // grouped apart: two groups would need 2 passes, so every pass stays flushed.
  rule_catalog packed;
  packed.rule = [](const std::vector<std::string>& n) {
    const bool cold = std::any_of(n.begin(), n.end(), [](const std::string& x) {
      return !roofkit::independent_of_cache_state(x);
    });
    return cold && n.size() > 1 ? 2 : 1;
  };
  auto s = set_of({"dram__bytes_read.sum", "l1tex__t_bytes.sum"}, 1);
  roofkit::lay_out_cold_passes(s, packed);
  EXPECT_EQ(s.cold_passes, -1);
  EXPECT_TRUE(s.cold_names.empty());
  EXPECT_EQ(s.config_groups().size(), 1u);
  EXPECT_TRUE(s.needs_cold_l2(0));
  EXPECT_TRUE(s.needs_cold_l2(5));
  // Counts only: no pass needs the flush.
  auto counts = set_of({"l1tex__t_bytes.sum", "smsp__sass_inst_executed_op_global_st.sum"}, 1);
  roofkit::lay_out_cold_passes(counts, packed);
  EXPECT_EQ(counts.cold_passes, 0);
  EXPECT_FALSE(counts.needs_cold_l2(0));
}

// On the H100/H200 the profile set keeps its 4 passes, of which only the first starts from an
// emptied L2: the DRAM, L2, time, cycle and occupancy counters, with the counts that fit there.
TEST(metric_sets, profile_set_on_gh100_flushes_one_pass_of_four) {
  cupti_catalog gh100("GH100");
  auto s = resolve_metric_set(roofkit::bench_metric_set(), gh100);
  roofkit::lay_out_cold_passes(s, gh100);
  EXPECT_EQ(s.passes, 4);
  EXPECT_EQ(s.cold_passes, 1);
  for (const auto& n : s.names()) {
    if (!roofkit::independent_of_cache_state(n)) {
      EXPECT_NE(std::find(s.cold_names.begin(), s.cold_names.end(), n), s.cold_names.end()) << n;
    }
  }
  const auto groups = s.config_groups();
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(gh100.passes(groups[0]), 1);
  EXPECT_EQ(cupti_catalog::image_passes(gh100.config_image(groups)), 4)
      << "the groups' passes add up: CUPTI schedules them apart";
  EXPECT_EQ(groups[0].size() + groups[1].size(), s.names().size());
}

TEST(roofline_counts, weights_levels_and_units) {
  const auto s = resolve_metric_set(find_metric_set("roofline"), cupti_catalog("GH100"));
  std::map<std::string, double> v;
  for (const auto& n : s.names())
    v[n] = 0;
  auto set = [&](const std::string& key, double value) { v[s.find(key)->name] = value; };
  set("ffma", 1000);
  set("fadd", 10);
  set("fmul", 20);
  set("dfma", 5);
  set("hfma", 7);
  set("hadd", 1);
  set("hgmma_bf16", 4096);
  set("hmma_fp16_f32", 8192);
  set("dram_read", 3e6);
  set("dram_write", 1e6);
  set("l2_bytes", 5e6);
  set("l1_bytes", 7e6);
  set("l1_shared_ld", 1e6);
  set("l1_shared_st", 2e5);
  set("time", 2500);
  set("sm_clock", 1.98e9);
  set("dram_clock", 2.6e9);
  set("sm_cycles", 4950);
  set("occupancy", 62.5);
  const auto c = roofkit::derive_roofline_counts(s, v);
  using roofkit::memory_level;
  using roofkit::precision;
  EXPECT_DOUBLE_EQ(c.flops.at(precision::fp32), 2 * 1000 + 10 + 20);
  EXPECT_DOUBLE_EQ(c.flops.at(precision::fp64), 10);
  EXPECT_DOUBLE_EQ(c.flops.at(precision::fp16), 4 * 7 + 2 * 1);
  EXPECT_DOUBLE_EQ(c.flops.at(precision::tensor_fp16), 4096 + 8192);
  EXPECT_EQ(c.flops.count(precision::tensor_tf32), 0u);
  EXPECT_EQ(c.flops.count(precision::tensor_fp8), 0u) << "zero paths are left out";
  EXPECT_DOUBLE_EQ(c.bytes.at(memory_level::dram), 4e6);
  EXPECT_DOUBLE_EQ(c.dram_read_bytes, 3e6);
  EXPECT_DOUBLE_EQ(c.dram_write_bytes, 1e6);
  // The levels are Nsight Compute's hierarchical ones: 32 B per L2-to-crossbar cycle, 128 B per
  // LSU writeback cycle.
  EXPECT_DOUBLE_EQ(c.bytes.at(memory_level::l2), 32 * 5e6);
  EXPECT_DOUBLE_EQ(c.bytes.at(memory_level::l1), 128 * (7e6 + 1e6 + 2e5));
  EXPECT_DOUBLE_EQ(c.time_s, 2.5e-6);
  EXPECT_DOUBLE_EQ(c.sm_clock_hz, 1.98e9);
  EXPECT_DOUBLE_EQ(c.dram_clock_hz, 2.6e9);
  EXPECT_DOUBLE_EQ(c.sm_cycles, 4950);
  ASSERT_TRUE(c.achieved_occupancy);
  EXPECT_DOUBLE_EQ(*c.achieved_occupancy, 0.625);
  EXPECT_TRUE(c.missing.empty());

  roofkit::kernel_result k;
  k.time.median_s = 1.0;
  roofkit::apply_counts(c, v, k);
  EXPECT_EQ(k.flops, c.flops);
  EXPECT_EQ(k.bytes, c.bytes);
  EXPECT_DOUBLE_EQ(*k.occupancy_achieved, 0.625);
  EXPECT_EQ(k.source, roofkit::work_source::counters);
  EXPECT_DOUBLE_EQ(k.counters.at("dram__bytes_read.sum"), 3e6);
  EXPECT_DOUBLE_EQ(k.time.median_s, 1.0) << "times come from the harness, not the counters";
  EXPECT_DOUBLE_EQ(*k.sm_clock_mhz, 1980);
  EXPECT_DOUBLE_EQ(*k.mem_clock_mhz, 2600);
  EXPECT_DOUBLE_EQ(*k.gpu_time_s, 2.5e-6);

  v.erase(s.find("dram_write")->name);
  const auto partial = roofkit::derive_roofline_counts(s, v);
  EXPECT_EQ(partial.missing, (std::vector<std::string>{"dram_write"}));
}

TEST(metric_report, tables_carry_sets_and_passes) {
  const auto sets = roofkit::resolve_offline("gb202", std::string("roofline"));
  ASSERT_EQ(sets.size(), 1u);
  const auto tables = roofkit::metric_tables(sets);
  ASSERT_EQ(tables.size(), 2u);
  EXPECT_EQ(tables[0].id, "sets");
  EXPECT_EQ(std::get<std::int64_t>(tables[0].rows[0][2]), 3);
  EXPECT_EQ(tables[0].columns[3].key, "flushed_passes");
  EXPECT_EQ(std::get<std::int64_t>(tables[0].rows[0][3]), 2) << "DRAM, L2 and time in 2 of 3";
  // Counts only: no pass needs the flush.
  const auto coalescing =
      roofkit::metric_tables(roofkit::resolve_offline("gb202", std::string("coalescing")));
  EXPECT_EQ(std::get<std::int64_t>(coalescing[0].rows[0][2]), 2);
  EXPECT_EQ(std::get<std::int64_t>(coalescing[0].rows[0][3]), 0);
  const auto& metrics = tables[1];
  bool saw = false;
  for (const auto& row : metrics.rows)
    if (std::get<std::string>(row[2]) == "dram_read") {
      EXPECT_EQ(std::get<std::string>(row[3]), "dram__bytes_op_read.sum");
      EXPECT_TRUE(std::get<bool>(row[7]));
      saw = true;
    }
  EXPECT_TRUE(saw);
  EXPECT_EQ(roofkit::metric_sets_table().rows.size(), roofkit::metric_sets().size());
}

} // namespace

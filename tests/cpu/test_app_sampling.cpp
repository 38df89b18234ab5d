// `profile`'s sampling without a GPU: the --sample and --nvtx-scope options, which launches of a
// shape are measured or inferred, the NVTX scope rule on synthetic push/pop sequences across
// threads, launch times in flat memory, the work extrapolated from measured launches to all
// launches of their shape, the spread between measured launches, and the launches grouped by
// NVTX range.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "roofkit/app_profile.hpp"
#include "roofkit/core.hpp"
#include "roofkit/results.hpp"
#include "roofkit/run.hpp"
#include "test_support.hpp"

namespace {

using roofkit::memory_level;
using roofkit::nvtx_scope;
using roofkit::precision;

using test_support::message_of;

TEST(sample_option, parses_all_or_a_count_and_names_a_bad_value_with_the_valid_range) {
  EXPECT_TRUE(roofkit::parse_sample_limit("all").all());
  EXPECT_EQ(roofkit::parse_sample_limit("3").per_shape, 3);
  EXPECT_EQ(roofkit::parse_sample_limit("1000000").per_shape, 1000000);
  EXPECT_EQ(roofkit::to_string(roofkit::parse_sample_limit("all")), "all");
  EXPECT_EQ(roofkit::to_string(roofkit::parse_sample_limit("7")), "7");
  EXPECT_EQ(roofkit::sample_limit{}.per_shape, 1); // the default
  for (const char* bad : {"0", "-1", "x", "2.5", "", "1000001", "All"})
    EXPECT_EQ(message_of([&] { roofkit::parse_sample_limit(bad); }),
              std::string("sample '") + bad + "' is not valid (valid: 1 to 1000000, or all)");
}

TEST(nvtx_scope_option, parses_and_prints_from_one_table) {
  for (auto s : {nvtx_scope::process, nvtx_scope::thread})
    EXPECT_EQ(roofkit::parse_nvtx_scope(roofkit::to_string(s)), s);
  EXPECT_EQ(roofkit::to_string(nvtx_scope::process), "process");
  EXPECT_EQ(message_of([] { roofkit::parse_nvtx_scope("global"); }),
            "NVTX scope 'global' is not valid (valid: process, thread)");
  EXPECT_EQ(roofkit::app_profile_options{}.nvtx_rule, nvtx_scope::process); // for PyTorch
}

using test_support::fake_env;
using test_support::fake_lookup;

TEST(sample_option, sampling_options_survive_the_environment) {
  roofkit::app_profile_options o;
  o.sample = roofkit::sample_limit{5};
  o.nvtx_rule = nvtx_scope::thread;
  o.progress = true;
  o.nvtx_groups = true;
  fake_env = roofkit::to_environment(o);
  auto back = roofkit::options_from_environment(fake_lookup);
  EXPECT_EQ(back.sample.per_shape, 5);
  EXPECT_EQ(back.nvtx_rule, nvtx_scope::thread);
  EXPECT_TRUE(back.progress);
  EXPECT_TRUE(back.nvtx_groups);
  o.sample = roofkit::sample_limit{-1};
  fake_env = roofkit::to_environment(o);
  EXPECT_EQ(fake_env["ROOFKIT_PROFILE_SAMPLE"], "all");
  EXPECT_TRUE(roofkit::options_from_environment(fake_lookup).sample.all());
  fake_env["ROOFKIT_PROFILE_SAMPLE"] = "0";
  EXPECT_THROW(roofkit::options_from_environment(fake_lookup), roofkit::error);
  fake_env.clear();
  // Following NVTX ranges for the groups needs NVTX's tool pointed at CUPTI.
  const auto env = roofkit::profile_environment(o, "/lib/inject.so", "/cuda/libcupti.so");
  EXPECT_EQ(env.at("NVTX_INJECTION64_PATH"), "/cuda/libcupti.so");
}

TEST(shape_sampler, measures_the_first_n_launches_of_each_shape_and_infers_the_rest) {
  roofkit::shape_sampler s(roofkit::sample_limit{2});
  const std::array<std::uint32_t, 3> g{132, 1, 1};
  const std::array<std::uint32_t, 3> b{256, 1, 1};
  const int a = s.shape_of(0, g, b, 0);
  EXPECT_EQ(s.shape_of(0, g, b, 0), a);
  const int other_smem = s.shape_of(0, g, b, 1024);
  const int other_kernel = s.shape_of(1, g, b, 0);
  const int other_grid = s.shape_of(0, {66, 1, 1}, b, 0);
  const int other_block = s.shape_of(0, g, {128, 1, 1}, 0);
  EXPECT_EQ(std::set<int>({a, other_smem, other_kernel, other_grid, other_block}).size(), 5u);
  EXPECT_EQ(s.shapes().size(), 5u);
  std::vector<bool> got, asked;
  for (int i = 0; i < 5; ++i) {
    asked.push_back(s.would_measure(a));
    asked.push_back(s.would_measure(a)); // asking does not count the launch
    got.push_back(s.measure(a));
  }
  EXPECT_EQ(got, (std::vector<bool>{true, true, false, false, false}));
  EXPECT_EQ(asked,
            (std::vector<bool>{true, true, true, true, false, false, false, false, false, false}));
  EXPECT_TRUE(s.measure(other_smem)); // its own first launch
  EXPECT_EQ(s.measured(a), 2);
  EXPECT_EQ(s.inferred(a), 3);
  EXPECT_EQ(s.measured_total(), 3);
  EXPECT_EQ(s.inferred_total(), 3);
  roofkit::shape_sampler all(roofkit::sample_limit{-1});
  const int x = all.shape_of(0, g, b, 0);
  for (int i = 0; i < 100; ++i)
    EXPECT_TRUE(all.measure(x));
  EXPECT_EQ(all.inferred(x), 0);
}

// A synthetic sequence of pushes, pops and launches on three threads.
TEST(nvtx_range_tracker, process_scope_follows_a_range_onto_every_thread) {
  roofkit::nvtx_range_tracker t;
  EXPECT_FALSE(t.inside(2, "step", nvtx_scope::process));
  t.push(1, "step"); // thread 1 (the training loop) opens the step
  // Thread 2 (autograd) launches inside it under process, not under thread.
  EXPECT_TRUE(t.inside(2, "step", nvtx_scope::process));
  EXPECT_FALSE(t.inside(2, "step", nvtx_scope::thread));
  EXPECT_TRUE(t.inside(1, "step", nvtx_scope::thread));
  EXPECT_EQ(t.path(2, nvtx_scope::process), (std::vector<std::string>{"step"}));
  EXPECT_TRUE(t.path(2, nvtx_scope::thread).empty());
  t.push(2, "backward"); // its own range: its launches are grouped under it
  EXPECT_EQ(t.path(2, nvtx_scope::process), (std::vector<std::string>{"backward"}));
  EXPECT_TRUE(t.inside(2, "step", nvtx_scope::process));
  EXPECT_FALSE(t.inside(2, "step", nvtx_scope::thread));
  // Thread 3 has none open: the latest pusher with a range open names its launches' ranges.
  EXPECT_EQ(t.path(3, nvtx_scope::process), (std::vector<std::string>{"backward"}));
  t.pop(1);
  EXPECT_FALSE(t.inside(2, "step", nvtx_scope::process));
  EXPECT_FALSE(t.inside(1, "step", nvtx_scope::thread));
  EXPECT_TRUE(t.inside(3, "backward", nvtx_scope::process));
  t.pop(2);
  EXPECT_TRUE(t.path(3, nvtx_scope::process).empty());
  t.pop(3); // nothing open: ignored
  // A name open twice stays open until both are popped.
  t.push(1, "a");
  t.push(2, "a");
  t.pop(1);
  EXPECT_TRUE(t.inside(1, "a", nvtx_scope::process));
  EXPECT_FALSE(t.inside(1, "a", nvtx_scope::thread));
  t.pop(2);
  EXPECT_FALSE(t.inside(1, "a", nvtx_scope::process));
}

// The selector with the tracker's answer: the launch of another thread inside "step".
TEST(nvtx_range_tracker, selector_takes_the_scope_rules_answer) {
  roofkit::app_profile_options o;
  o.nvtx_range = "step";
  roofkit::launch_selector s(o);
  roofkit::nvtx_range_tracker t;
  t.push(1, "step");
  EXPECT_TRUE(s.select_inside("k", t.inside(2, "step", nvtx_scope::process)));
  EXPECT_FALSE(s.select_inside("k", t.inside(2, "step", nvtx_scope::thread)));
  roofkit::launch_selector no_range(roofkit::app_profile_options{});
  EXPECT_TRUE(no_range.select_inside("k", false)); // no range asked for: the answer is ignored
}

TEST(launch_time_stats, exact_for_few_launches_and_flat_for_many) {
  roofkit::launch_time_stats s;
  for (double v : {5e-6, 1e-6, 3e-6, 2e-6, 4e-6})
    s.add(v);
  EXPECT_EQ(s.count(), 5);
  EXPECT_NEAR(s.total_s(), 15e-6, 1e-15);
  EXPECT_DOUBLE_EQ(s.min_s(), 1e-6);
  EXPECT_DOUBLE_EQ(s.max_s(), 5e-6);
  EXPECT_NEAR(s.median_s(), 3e-6, 1e-12);
  roofkit::launch_time_stats many;
  for (int i = 0; i < 100000; ++i)
    many.add((i % 100 + 1) * 1e-6); // uniform on 1..100 us: median 50.5 us
  EXPECT_EQ(many.count(), 100000);
  EXPECT_NEAR(many.total_s(), 1000 * 5050e-6, 1e-9);
  EXPECT_DOUBLE_EQ(many.max_s(), 100e-6);
  EXPECT_NEAR(many.median_s(), 50.5e-6, 12e-6); // from the reservoir
  roofkit::launch_time_stats merged = s;
  merged.merge(many);
  EXPECT_EQ(merged.count(), 100005);
  EXPECT_DOUBLE_EQ(merged.min_s(), 1e-6);
  EXPECT_NEAR(merged.total_s(), 15e-6 + 5.05, 1e-9);
}

// A sampled log of one process, written with the record functions: shapes 0 and 2 of gemm (two
// grids), shape 1 of relu; ranges step>forward and step>backward.
roofkit::launch_record measured(std::int64_t index, int shape, int range, const char* name,
                                std::uint32_t grid, double flops, double dram, double time) {
  roofkit::launch_record r;
  r.index = index;
  r.pid = 7;
  r.shape = shape;
  r.range = range;
  r.kernel.name = name;
  r.kernel.launch.grid = {grid, 1, 1};
  r.kernel.launch.block = {256, 1, 1};
  r.kernel.flops[precision::fp32] = flops;
  r.kernel.bytes[memory_level::dram] = dram;
  r.kernel.gpu_time_s = time;
  return r;
}

std::string sampled_log_text() {
  std::string t = roofkit::start_line(
      {{"name", "NVIDIA H100 80GB HBM3"}, {"cc", "9.0"}, {"sms", "132"}, {"ordinal", "0"}},
      "roofline", 3, 7);
  t += roofkit::launch_line(measured(0, 0, 0, "gemm", 132, 1e9, 1.0e6, 100e-6));
  t += roofkit::launch_line(measured(1, 1, 0, "relu", 64, 1e6, 4e6, 20e-6));
  t += roofkit::launch_line(measured(2, 2, -1, "gemm", 66, 5e8, 5e5, 50e-6));
  t += roofkit::launch_line(measured(3, 0, 0, "gemm", 132, 1e9, 1.2e6, 110e-6));
  t += roofkit::launch_line(measured(4, 1, 0, "relu", 64, 1e6, 4e6, 20e-6));
  t += roofkit::inferred_line({{6, 0}, {7, 1}, {9, 0}}, 7);
  t += roofkit::inferred_line({{10, 1}, {12, 0}, {15, 0}}, 7);
  t += roofkit::timing_line({"gemm", 7, 680e-6, 100e-6, 50e-6, 110e-6});
  t += roofkit::timing_line({"relu", 4, 80e-6, 20e-6, 20e-6, 20e-6});
  t += roofkit::shape_line({7, 0, "gemm", "_Z4gemm", {132, 1, 1}, {256, 1, 1}, 0});
  t += roofkit::shape_line({7, 1, "relu", "_Z4relu", {64, 1, 1}, {256, 1, 1}, 0});
  t += roofkit::shape_line({7, 2, "gemm", "_Z4gemm", {66, 1, 1}, {256, 1, 1}, 0});
  t += roofkit::range_line({7, 0, {"step", "forward"}});
  t += roofkit::range_line({7, 1, {"step", "backward"}});
  t += roofkit::group_line({7, 0, 0, 3, 2, 1, 330e-6, 100e-6, 120e-6});
  t += roofkit::group_line({7, 0, 1, 3, 0, 3, 300e-6, 100e-6, 100e-6});
  t += roofkit::group_line({7, 1, 0, 4, 2, 2, 80e-6, 20e-6, 20e-6});
  t += roofkit::group_line({7, 2, -1, 1, 1, 0, 50e-6, 50e-6, 50e-6});
  t += roofkit::end_line(16, 7);
  return t;
}

TEST(sampled_log, records_round_trip_and_inferred_launches_name_their_shape) {
  const auto log = roofkit::parse_profile_log(sampled_log_text());
  EXPECT_TRUE(log.finished);
  ASSERT_EQ(log.shapes.size(), 3u);
  EXPECT_EQ(log.shapes[2].grid, (std::array<std::uint32_t, 3>{66, 1, 1}));
  EXPECT_EQ(log.shapes[1].mangled_name, "_Z4relu");
  ASSERT_EQ(log.ranges.size(), 2u);
  EXPECT_EQ(log.ranges[1].path, (std::vector<std::string>{"step", "backward"}));
  ASSERT_EQ(log.groups.size(), 4u);
  EXPECT_EQ(log.groups[1].inferred, 3);
  EXPECT_EQ(log.groups[3].range, -1);
  EXPECT_EQ(log.inferred.at({7, 0}), (std::vector<std::int64_t>{6, 9, 12, 15}));
  EXPECT_EQ(log.inferred.at({7, 1}), (std::vector<std::int64_t>{7, 10}));
  EXPECT_EQ(log.launches[2].shape, 2);
  EXPECT_EQ(log.launches[2].range, -1);
  EXPECT_EQ(log.launches[0].range, 0);
}

TEST(sampled_log, work_is_extrapolated_from_measured_launches_to_all_launches_of_the_shape) {
  const auto shapes = roofkit::sampled_shapes(roofkit::parse_profile_log(sampled_log_text()));
  ASSERT_EQ(shapes.size(), 3u);
  const auto& gemm = shapes[0];
  EXPECT_EQ(gemm.launches, 6);
  EXPECT_EQ(gemm.measured, 2);
  EXPECT_EQ(gemm.inferred, 4);
  EXPECT_NEAR(gemm.total_s, 630e-6, 1e-15);
  EXPECT_DOUBLE_EQ(gemm.bytes_per_launch.at(memory_level::dram), 1.1e6);
  EXPECT_DOUBLE_EQ(gemm.flops.at(precision::fp32), 6e9);
  EXPECT_DOUBLE_EQ(gemm.bytes.at(memory_level::dram), 6.6e6);
  // Spread between the two measured launches: (max - min) / mean.
  EXPECT_NEAR(gemm.spread_dram, 0.2e6 / 1.1e6, 1e-12);
  EXPECT_NEAR(gemm.spread_time, 10e-6 / 105e-6, 1e-9);
  EXPECT_DOUBLE_EQ(gemm.spread_flops, 0);
  EXPECT_DOUBLE_EQ(shapes[1].bytes.at(memory_level::dram), 16e6);
  EXPECT_EQ(shapes[2].launches, 1);
  EXPECT_DOUBLE_EQ(shapes[2].spread_dram, 0); // one measured launch
  // Over every timed launch of the shape, from its groups' times: 100 to 120 us, 105 us mean.
  EXPECT_NEAR(gemm.spread_time_timed, 20e-6 / 105e-6, 1e-9);
  EXPECT_DOUBLE_EQ(shapes[1].spread_time_timed, 0); // four launches of 20 us
  EXPECT_DOUBLE_EQ(shapes[2].spread_time_timed, 0); // one launch
  // Per kernel: both gemm shapes summed, the largest spread kept.
  for (const auto& k : roofkit::summarize_kernels(roofkit::parse_profile_log(sampled_log_text())))
    if (k.name == "gemm") {
      EXPECT_EQ(k.launches, 7);
      EXPECT_EQ(k.profiled, 3);
      EXPECT_EQ(k.inferred, 4);
      EXPECT_DOUBLE_EQ(k.flops.at(precision::fp32), 6.5e9);
      EXPECT_DOUBLE_EQ(k.bytes.at(memory_level::dram), 7.1e6);
      EXPECT_NEAR(k.spread_dram, 0.2e6 / 1.1e6, 1e-12);
      EXPECT_NEAR(k.share, 680.0 / 760, 1e-12);
    }
}

TEST(sampled_log, a_log_before_sampling_counts_every_profiled_launch_as_measured) {
  std::string t = roofkit::launch_line(measured(0, -1, -1, "k", 8, 10, 100, 1e-6));
  t += roofkit::launch_line(measured(1, -1, -1, "k", 8, 10, 300, 3e-6));
  const auto shapes = roofkit::sampled_shapes(roofkit::parse_profile_log(t));
  ASSERT_EQ(shapes.size(), 1u);
  EXPECT_EQ(shapes[0].measured, 2);
  EXPECT_EQ(shapes[0].inferred, 0);
  EXPECT_DOUBLE_EQ(shapes[0].bytes.at(memory_level::dram), 400);
  EXPECT_DOUBLE_EQ(shapes[0].spread_dram, 1.0);
}

TEST(sampled_log, run_kernels_carry_extrapolated_totals_and_the_json_says_measured_or_inferred) {
  const auto log = roofkit::parse_profile_log(sampled_log_text());
  roofkit::profile_run_inputs in;
  in.options.sample = roofkit::sample_limit{2};
  const auto r = roofkit::build_profile_run(log, in);
  const roofkit::kernel_result* big = nullptr;
  for (const auto& k : r.kernels)
    if (k.name.rfind("gemm [grid (132", 0) == 0)
      big = &k;
  ASSERT_NE(big, nullptr);
  EXPECT_DOUBLE_EQ(big->counters.at("roofkit__app_total_flops.fp32"), 6e9);
  EXPECT_DOUBLE_EQ(big->counters.at("roofkit__app_total_bytes.dram"), 6.6e6);
  EXPECT_DOUBLE_EQ(big->counters.at("roofkit__app_measured_launches"), 2);
  EXPECT_DOUBLE_EQ(big->counters.at("roofkit__app_inferred_launches"), 4);
  EXPECT_NEAR(big->counters.at("roofkit__app_spread_dram_bytes"), 0.2e6 / 1.1e6, 1e-12);
  EXPECT_NEAR(big->counters.at("roofkit__app_spread_time_timed"), 20e-6 / 105e-6, 1e-9);
  EXPECT_NE(big->size.find("4 inferred"), std::string::npos) << big->size;
  const auto j = nlohmann::json::parse(roofkit::profile_run_json(r, log, in));
  const auto& p = j["profile"];
  EXPECT_EQ(p["options"]["sample"], "2");
  EXPECT_EQ(p["options"]["nvtx_scope"], "process");
  EXPECT_EQ(p["inferred_launches"], 6);
  EXPECT_EQ(p["launches"][0]["sample"], "measured");
  EXPECT_EQ(p["launches"][0]["shape"], 0);
  EXPECT_EQ(p["launches"][0]["nvtx_ranges"], nlohmann::json({"step", "forward"}));
  EXPECT_FALSE(p["launches"][2].contains("nvtx_ranges"));
  ASSERT_EQ(p["shapes"].size(), 3u);
  EXPECT_EQ(p["shapes"][0]["inferred_indexes"], nlohmann::json({6, 9, 12, 15}));
  EXPECT_DOUBLE_EQ(p["shapes"][0]["flops"]["fp32"].get<double>(), 6e9);
  EXPECT_NEAR(p["shapes"][0]["spread"]["dram_bytes"].get<double>(), 0.2e6 / 1.1e6, 1e-12);
  EXPECT_NEAR(p["shapes"][0]["spread"]["gpu_time_timed"].get<double>(), 20e-6 / 105e-6, 1e-9);
  EXPECT_NEAR(p["kernels"][0]["spread"]["gpu_time_timed"].get<double>(), 20e-6 / 105e-6, 1e-9);
  EXPECT_EQ(p["kernels"][0]["name"], "gemm");
  EXPECT_EQ(p["kernels"][0]["inferred"], 4);
  EXPECT_DOUBLE_EQ(p["kernels"][0]["flops"]["fp32"].get<double>(), 6.5e9);
}

TEST(nvtx_groups, launches_are_summarised_per_range_with_extrapolated_work) {
  const auto log = roofkit::parse_profile_log(sampled_log_text());
  const auto ranges = roofkit::summarize_ranges(log);
  ASSERT_EQ(ranges.size(), 3u);
  EXPECT_EQ(ranges[0].path, (std::vector<std::string>{"step", "forward"}));
  EXPECT_EQ(ranges[0].launches, 7);
  EXPECT_EQ(ranges[0].measured, 4);
  EXPECT_EQ(ranges[0].inferred, 3);
  EXPECT_NEAR(ranges[0].total_s, 410e-6, 1e-15);
  EXPECT_NEAR(ranges[0].share, 410.0 / 760, 1e-12);
  EXPECT_DOUBLE_EQ(ranges[0].flops.at(precision::fp32), 3e9 + 4e6);
  EXPECT_DOUBLE_EQ(ranges[0].bytes.at(memory_level::dram), 3.3e6 + 16e6);
  EXPECT_EQ(ranges[1].path, (std::vector<std::string>{"step", "backward"}));
  EXPECT_EQ(ranges[1].measured, 0); // every launch inferred: work from the forward's gemm shape
  EXPECT_DOUBLE_EQ(ranges[1].flops.at(precision::fp32), 3e9);
  EXPECT_TRUE(ranges[2].path.empty());
  EXPECT_NEAR(ranges[2].share, 50.0 / 760, 1e-12);
  // Placed on the roofline of the run's ceilings: a row per range with its bound.
  roofkit::run r;
  r.ceilings = {{false, precision::fp32, memory_level::dram, 60e12},
                {true, precision::fp32, memory_level::dram, 3e12}};
  const auto placed = roofkit::range_run(r, ranges);
  ASSERT_EQ(placed.kernels.size(), 3u);
  EXPECT_EQ(placed.kernels[0].name, "step > forward");
  EXPECT_EQ(placed.kernels[2].name, "(outside every range)");
  const auto t = roofkit::range_table(placed, ranges);
  EXPECT_EQ(t.id, "ranges");
  ASSERT_EQ(t.rows.size(), 3u);
  // forward: 3.004e9 FLOP over 410 us = 7327 GFLOP/s.
  EXPECT_NEAR(std::get<double>(t.rows[0][5]), 3.004e9 / 410e-6 * 1e-9, 1e-6);
  EXPECT_EQ(std::get<std::int64_t>(t.rows[1][3]), 3);
  // The run file's per-range summary.
  const auto j = nlohmann::json::parse(roofkit::profile_run_json(placed, log, {}));
  ASSERT_EQ(j["profile"]["ranges"].size(), 3u);
  EXPECT_EQ(j["profile"]["ranges"][1]["path"], nlohmann::json({"step", "backward"}));
  EXPECT_NEAR(j["profile"]["ranges"][0]["flop_per_s"].get<double>(), 3.004e9 / 410e-6, 1);
}

} // namespace

namespace {

// `report` reads the per-range summary back from the run file.
TEST(nvtx_groups, the_run_files_ranges_read_back) {
  const auto log = roofkit::parse_profile_log(sampled_log_text());
  const auto r = roofkit::build_profile_run(log, {});
  const auto text = roofkit::profile_run_json(r, log, {});
  const auto back = roofkit::ranges_of_run_file(text);
  const auto want = roofkit::summarize_ranges(log);
  ASSERT_EQ(back.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(back[i].path, want[i].path);
    EXPECT_EQ(back[i].launches, want[i].launches);
    EXPECT_EQ(back[i].inferred, want[i].inferred);
    EXPECT_DOUBLE_EQ(back[i].share, want[i].share);
    EXPECT_EQ(back[i].flops, want[i].flops);
    EXPECT_EQ(back[i].bytes, want[i].bytes);
  }
  EXPECT_TRUE(roofkit::ranges_of_run_file("{\"schema\": \"roofkit.run/1\"}").empty());
}

} // namespace

namespace {

// The chart's "other" entry folds kernels with their work extrapolated to all their launches
// (roofkit__app_total_*), not per-launch work times the launches that were profiled.
TEST(sampled_log, the_charts_folded_kernels_use_the_extrapolated_totals) {
  roofkit::run r;
  for (int i = 0; i < 3; ++i) {
    roofkit::kernel_result k;
    k.name = "k" + std::to_string(i);
    k.flops[precision::fp32] = 10;
    k.bytes[memory_level::dram] = 100;
    k.time = {1e-6, 1e-6, 1e-6, 1};
    k.counters["roofkit__app_launches"] = 5;
    k.counters["roofkit__app_total_time_s"] = (3 - i) * 1e-3;
    if (i > 0) {
      k.counters["roofkit__app_total_flops.fp32"] = 70;
      k.counters["roofkit__app_total_bytes.dram"] = 900;
    }
    r.kernels.push_back(k);
  }
  const auto top = roofkit::top_kernels_run(r, 1);
  ASSERT_EQ(top.kernels.size(), 2u);
  EXPECT_EQ(top.kernels[1].name, "other (2 kernels)");
  EXPECT_DOUBLE_EQ(top.kernels[1].flops.at(precision::fp32), 140);
  EXPECT_DOUBLE_EQ(top.kernels[1].bytes.at(memory_level::dram), 1800);
}

} // namespace

// compare_runs: matching by name, change in time, intensity and % of roof; its table.
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "roofkit/results.hpp"

namespace {

using roofkit::memory_level;
using roofkit::precision;

roofkit::run base_run(const std::string& device = "GPU") {
  roofkit::run r;
  r.context.device_name = device;
  roofkit::ceiling fp32;
  fp32.prec = precision::fp32;
  fp32.value = 60e12;
  roofkit::ceiling dram;
  dram.is_memory = true;
  dram.level = memory_level::dram;
  dram.value = 3e12;
  r.ceilings = {fp32, dram};
  return r;
}

void add(roofkit::run& r, const std::string& name, double flops, double bytes, double time) {
  roofkit::kernel_result k;
  k.name = name;
  if (flops > 0)
    k.flops[precision::fp32] = flops;
  k.bytes[memory_level::dram] = bytes;
  k.time.median_s = time;
  r.kernels.push_back(k);
}

TEST(compare, matched_kernel_changes) {
  roofkit::run before = base_run();
  roofkit::run after = base_run();
  // gemm: 1e12 FLOP, 1e11 B in 0.1 s (33.3% of the DRAM roof) -> 2.5e10 B in 0.025 s: intensity
  // 10 -> 40, compute-bound at 1e12/60e12 = 16.7 ms -> 66.7% of the FP32 roof, 4x faster.
  add(before, "gemm", 1e12, 1e11, 0.1);
  add(after, "gemm", 1e12, 2.5e10, 0.025);
  const auto c = roofkit::compare_runs(before, after);
  ASSERT_EQ(c.kernels.size(), 1u);
  const auto& ch = c.kernels[0];
  EXPECT_TRUE(ch.matched());
  EXPECT_DOUBLE_EQ(ch.speedup, 4.0);
  EXPECT_DOUBLE_EQ(ch.time_change_pct, -75.0);
  ASSERT_TRUE(ch.intensity_level.has_value());
  EXPECT_EQ(*ch.intensity_level, memory_level::dram);
  EXPECT_DOUBLE_EQ(ch.intensity_before, 10.0);
  EXPECT_DOUBLE_EQ(ch.intensity_after, 40.0);
  EXPECT_NEAR(ch.pct_of_roof_before, 100.0 / 3, 1e-9);
  EXPECT_NEAR(ch.pct_of_roof_after, 200.0 / 3, 1e-9);
  EXPECT_NEAR(ch.pct_of_roof_change, 100.0 / 3, 1e-9);
  EXPECT_EQ(ch.bound_before, "dram");
  EXPECT_EQ(ch.bound_after, "fp32");
  EXPECT_EQ(ch.before.levels.size(), 1u); // placements for the arrow chart
  EXPECT_DOUBLE_EQ(ch.after.achieved_flops, 4e13);
  EXPECT_TRUE(c.notes.empty());
}

TEST(compare, unmatched_and_repeated_names) {
  roofkit::run before = base_run("A");
  roofkit::run after = base_run("B");
  add(before, "copy", 0, 1e9, 1e-3);
  add(before, "copy", 0, 2e9, 1e-3);
  add(before, "gone", 0, 1e9, 1e-3);
  add(after, "copy", 0, 1e9, 0.5e-3);
  add(after, "copy", 0, 2e9, 2e-3);
  add(after, "new", 0, 1e9, 1e-3);
  after.ceilings[1].value = 2.5e12;
  const auto c = roofkit::compare_runs(before, after);
  ASSERT_EQ(c.kernels.size(), 4u);
  EXPECT_DOUBLE_EQ(c.kernels[0].speedup, 2.0);            // first copy with first copy
  EXPECT_DOUBLE_EQ(c.kernels[1].speedup, 0.5);            // second with second
  EXPECT_FALSE(c.kernels[0].intensity_level.has_value()); // copies: no intensity
  EXPECT_EQ(c.kernels[2].name, "gone");
  EXPECT_TRUE(c.kernels[2].in_before);
  EXPECT_FALSE(c.kernels[2].in_after);
  EXPECT_DOUBLE_EQ(c.kernels[2].speedup, 0.0);
  EXPECT_EQ(c.kernels[3].name, "new");
  EXPECT_FALSE(c.kernels[3].in_before);
  // copy #1 after: 1e9 B in 0.5 ms = 2 TB/s of 2.5 TB/s
  EXPECT_NEAR(c.kernels[0].pct_of_roof_after, 80.0, 1e-9);
  ASSERT_EQ(c.notes.size(), 3u);
  EXPECT_NE(c.notes[0].find("different devices"), std::string::npos);
  EXPECT_NE(c.notes[1].find("different ceilings"), std::string::npos);
  EXPECT_NE(c.notes[2].find("2 kernel(s)"), std::string::npos);
}

TEST(compare, table_and_report) {
  roofkit::run before = base_run();
  roofkit::run after = base_run();
  add(before, "gemm", 1e12, 1e11, 0.1);
  add(after, "gemm", 1e12, 2.5e10, 0.2);
  add(after, "extra", 0, 1e9, 1e-3);
  const auto c = roofkit::compare_runs(before, after);
  const auto t = roofkit::compare_table(c);
  EXPECT_EQ(t.id, "compare");
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(std::get<double>(t.rows[0][4]), 0.5); // speedup
  EXPECT_TRUE(t.highlight[0]);                    // slower: highlighted
  EXPECT_EQ(std::get<std::string>(t.rows[1][1]), "only after");
  EXPECT_TRUE(std::holds_alternative<std::monostate>(t.rows[1][2]));

  std::ostringstream json_out;
  roofkit::print_compare_report(c, roofkit::output_format::json, json_out);
  const auto j = nlohmann::json::parse(json_out.str()).at("compare");
  ASSERT_EQ(j.size(), 2u);
  EXPECT_DOUBLE_EQ(j[0]["intensity_after"].get<double>(), 40.0);
  EXPECT_DOUBLE_EQ(j[0]["time_change_pct"].get<double>(), 100.0);
  EXPECT_TRUE(j[1]["speedup"].is_null());

  std::ostringstream md;
  roofkit::print_compare_report(c, roofkit::output_format::markdown, md, "a.json", "b.json");
  EXPECT_NE(md.str().find("- Before (a.json): "), std::string::npos) << md.str();
  EXPECT_NE(md.str().find("| **gemm** "), std::string::npos) << md.str(); // slower: bold
}

} // namespace

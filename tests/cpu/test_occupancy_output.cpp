// occupancy-calc's output shaped like the data: JSON objects for records with a versioned schema,
// one CSV table, the answer first with the nearest cliffs and how to measure them, and the
// warning when a ptxas log was compiled for another architecture than the one asked for.
#include <algorithm>
#include <cstdio>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "roofkit/arch.hpp"
#include "roofkit/cliff.hpp"
#include "roofkit/core.hpp"
#include "roofkit/occupancy.hpp"

namespace {

using namespace roofkit;

occupancy_target target(const char* arch) {
  occupancy_target t;
  t.arch = &find_arch(arch);
  t.origin = std::string("--arch ") + arch;
  return t;
}

launch_params output_launch(int threads, int regs) {
  launch_params l;
  l.threads_per_block = threads;
  l.registers_per_thread = regs;
  return l;
}

std::string print(const std::vector<report_section>& s, output_format f,
                  const std::string& only = {}) {
  std::ostringstream out;
  print_report(s, f, out, only);
  return out.str();
}

TEST(occupancy_output, json_is_objects_for_records_lists_for_lists_and_has_a_schema) {
  const auto t = target("sm_90");
  const auto l = output_launch(256, 48);
  const auto sections = occupancy_report(t, l, compute_occupancy(*t.arch, l));
  const auto doc = nlohmann::json::parse(print(sections, output_format::json));
  EXPECT_EQ(doc.at("schema"), "roofkit.occupancy/2");
  EXPECT_EQ(std::string(occupancy_schema), "roofkit.occupancy/2");
  ASSERT_TRUE(doc.at("occupancy").is_object());
  EXPECT_EQ(doc.at("occupancy").at("active_blocks_per_sm"), 5);
  EXPECT_DOUBLE_EQ(doc.at("occupancy").at("occupancy").get<double>(), 0.625);
  EXPECT_TRUE(doc.at("target").is_object());
  EXPECT_EQ(doc.at("target").at("arch"), "sm_90");
  EXPECT_TRUE(doc.at("launch").is_object());
  ASSERT_TRUE(doc.at("limits").is_array());
  EXPECT_EQ(doc.at("limits").size(), 5u);
  EXPECT_EQ(doc.at("limits").at(1).at("resource"), "registers");
  EXPECT_EQ(doc.at("limits").at(1).at("limiting"), true);
  // --table restricts JSON to one member (beside the schema).
  const auto one = nlohmann::json::parse(print(sections, output_format::json, "limits"));
  EXPECT_EQ(one.size(), 2u);
  EXPECT_TRUE(one.at("limits").is_array());
}

TEST(occupancy_output, csv_is_one_table) {
  const auto t = target("sm_90");
  const auto l = output_launch(256, 48);
  const auto sections = occupancy_report(t, l, compute_occupancy(*t.arch, l));
  const std::string csv = print(sections, output_format::csv, "occupancy");
  EXPECT_EQ(csv.find("\n\n"), std::string::npos) << csv;
  EXPECT_EQ(csv.rfind("active_blocks_per_sm,", 0), 0u) << csv;
  std::size_t lines = 0;
  for (char c : csv)
    lines += c == '\n' ? 1 : 0;
  EXPECT_EQ(lines, 2u);
  // Without a choice: the first table only, never several.
  EXPECT_EQ(print(sections, output_format::csv).find("\n\n"), std::string::npos);
  try {
    print(sections, output_format::csv, "nope");
    ADD_FAILURE() << "an unknown table must be refused";
  } catch (const roofkit::error& e) {
    EXPECT_EQ(e.code(), exit_code::usage);
    EXPECT_STREQ(e.what(),
                 "no table 'nope' in this output (valid: target, launch, occupancy, limits)");
  }
}

TEST(occupancy_output, nearby_cliffs_have_their_distance_and_a_sweep_across_them) {
  // sm_80, 512 threads, 33 registers: 3 blocks (75%); 32 registers: 4 blocks (100%);
  // 41 registers: 2 blocks (50%).
  const auto cliffs = nearby_cliffs(find_arch("sm_80"), output_launch(512, 33));
  ASSERT_GE(cliffs.size(), 2u);
  EXPECT_EQ(cliffs[0].variable, occupancy_variable::registers);
  EXPECT_EQ(cliffs[0].distance, -1);
  EXPECT_EQ(cliffs[0].text, "-1 register (32/thread): 75% -> 100%");
  EXPECT_EQ(cliffs[0].sweep, "regs");
  EXPECT_EQ(cliffs[0].range, "31:34:1");
  EXPECT_EQ(cliffs[1].distance, 8);
  EXPECT_EQ(cliffs[1].text, "+8 registers (41/thread): 75% -> 50%");
  EXPECT_EQ(cliffs[1].range, "32:42:1");
  bool block = false;
  for (const auto& c : cliffs)
    if (c.variable == occupancy_variable::block_size) {
      block = true;
      EXPECT_EQ(c.sweep, "block");
      // The range spans the launch and the cliff in whole warps.
      int lo = 0, hi = 0, step = 0;
      ASSERT_EQ(std::sscanf(c.range.c_str(), "%d:%d:%d", &lo, &hi, &step), 3) << c.range;
      EXPECT_EQ(step % 32, 0) << c.range;
      EXPECT_EQ(lo % 32, 0) << c.range;
      EXPECT_EQ(hi % 32, 0) << c.range;
      EXPECT_LE(lo, std::min(c.current, c.value)) << c.range;
      EXPECT_GE(hi, std::max(c.current, c.value)) << c.range;
      EXPECT_NE(c.from, c.to) << c.text;
    }
  EXPECT_TRUE(block);
}

TEST(occupancy_output, the_answer_comes_first_with_commands_to_measure_each_cliff) {
  const auto t = target("sm_80");
  const auto l = output_launch(512, 33);
  const std::string text =
      occupancy_summary(t, l, compute_occupancy(*t.arch, l), "my_kernel",
                        [](const std::string& k, const cliff_line& c) {
                          return "measure " + k + " " + c.sweep + " " + c.range;
                        });
  EXPECT_EQ(text.rfind("my_kernel\nOccupancy 75.0% on sm_80 (Ampere, CC 8.0): 48 of 64 warps per "
                       "SM, 3 blocks of 512 threads.\nLimited by: registers.\nNearest cliffs:\n"
                       "  -1 register (32/thread): 75% -> 100%\n"
                       "      measure: measure my_kernel regs 31:34:1\n"
                       "  +8 registers (41/thread): 75% -> 50%\n",
                       0),
            0u)
      << text;
  // A launch where no block fits says why, and nothing else.
  const auto big = output_launch(800, 80);
  const auto t90 = target("sm_90");
  const std::string none = occupancy_summary(t90, big, compute_occupancy(*t90.arch, big));
  EXPECT_NE(none.find("No block fits: 80 registers per thread"), std::string::npos) << none;
  EXPECT_EQ(none.find("Nearest cliffs"), std::string::npos);
}

TEST(occupancy_output, a_ptxas_log_for_another_arch_gets_a_warning) {
  const auto kernels = parse_ptxas_log(read_text_file(std::string(ROOFKIT_TEST_SOURCE_DIR) +
                                                      "/tests/data/ptxas/kernels_sm80_sm90.log"));
  ASSERT_EQ(kernels.size(), 16u);
  EXPECT_EQ(ptxas_arch_mismatch(kernels, target("sm_90")),
            "the ptxas log compiled 8 of 16 kernels for sm_80, but the numbers are for sm_90 "
            "(--arch sm_90): recompile for sm_90 for its register and shared-memory counts");
  // sm_90a is sm_90 compiled with architecture-specific features: no mismatch for those.
  const std::string w = ptxas_arch_mismatch(kernels, target("sm_90a"));
  EXPECT_NE(w.find("8 of 16 kernels for sm_80"), std::string::npos) << w;
  EXPECT_EQ(ptxas_arch_mismatch(kernels, occupancy_target{}), "");
  std::vector<ptxas_kernel> only90;
  for (const auto& k : kernels)
    if (k.arch == "sm_90")
      only90.push_back(k);
  EXPECT_EQ(ptxas_arch_mismatch(only90, target("sm_90")), "");
  // The summary covers every kernel, each on the arch it is computed for.
  launch_params base = output_launch(256, 0);
  const std::string s = ptxas_summary(only90, target("sm_90"), base);
  EXPECT_NE(s.find("void transpose<100>(float const*, float*, int)\nOccupancy 62.5% on sm_90"),
            std::string::npos)
      << s;
}

} // namespace

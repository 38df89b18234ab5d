// No chart, table or report shows two different kernels under one label, for any run: every
// run file under data/runs and tests/data/runs, and synthetic runs with colliding names.
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "roofkit/plot.hpp"
#include "roofkit/results.hpp"
#include "test_chart_runs.hpp"

namespace {

using namespace roofkit;
namespace fs = std::filesystem;

std::vector<run> every_run() {
  std::vector<run> runs;
  for (const char* dir : {"/data/runs", "/tests/data/runs"})
    for (const auto& e : fs::directory_iterator(std::string(ROOFKIT_TEST_SOURCE_DIR) + dir))
      if (e.path().extension() == ".json" &&
          e.path().filename().string().find("claim-notes") == std::string::npos)
        runs.push_back(load_run(e.path()));
  return runs;
}

// Colliding names: one function with several template arguments and grids, library kernels of
// one tile, long names equal in their first 40 characters.
run colliding_run() {
  using namespace chart_test;
  run r;
  r.context.device_name = "test GPU";
  r.ceilings = {memory_ceiling(memory_level::dram, 3e12, ceiling_source::measured),
                compute_ceiling(precision::fp32, 60e12, ceiling_source::measured)};
  const std::vector<std::string> names{
      "void at::native::vectorized_elementwise_kernel<4, at::native::GeluFunctor<float>, "
      "std::array<char*, 2ul> >(int, at::native::GeluFunctor<float>, std::array<char*, 2ul>)",
      "void at::native::vectorized_elementwise_kernel<4, at::native::MulFunctor<float>, "
      "std::array<char*, 3ul> >(int, at::native::MulFunctor<float>, std::array<char*, 3ul>)",
      "void fft2d_r2c_64x64<float>(float2*) [grid (64, 128, 1) block (128, 1, 1)]",
      "void fft2d_r2c_64x64<float>(float2*) [grid (64, 32, 1) block (128, 1, 1)]",
      "void fft2d_r2c_64x64<float>(float2*)",
      "void fft2d_r2c_64x64<float>(float2*)",
      "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT",
      "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_TNT",
      "a_kernel_whose_name_is_long_enough_to_be_cut_anywhere_on_a_chart_A",
      "a_kernel_whose_name_is_long_enough_to_be_cut_anywhere_on_a_chart_B",
      "a_kernel_whose_name_is_long_enough_to_be_cut_anywhere_on_a_chart_A"};
  for (std::size_t i = 0; i < names.size(); ++i) {
    auto k = kernel(names[i], precision::fp32, 1e9 * (i + 1), 1e9, 1e-3);
    k.launch.grid = {static_cast<std::uint32_t>(64 + i), 1, 1};
    r.kernels.push_back(k);
  }
  return r;
}

// The first (or the last) cell of every row of the Markdown kernels table.
std::vector<std::string> markdown_kernel_cells(const std::string& text, bool last) {
  std::vector<std::string> cells;
  std::istringstream in(text);
  std::string line;
  bool in_table = false;
  while (std::getline(in, line)) {
    if (line.rfind("| Kernel", 0) == 0) {
      in_table = true;
      std::getline(in, line); // the rule
      continue;
    }
    if (in_table && line.rfind("|", 0) != 0)
      break;
    if (in_table) {
      const std::size_t begin = last ? line.rfind('|', line.size() - 2) : 0;
      const auto end = line.find('|', begin + 1);
      std::string cell = line.substr(begin + 1, end - begin - 1);
      cell.erase(0, cell.find_first_not_of(' '));
      cell.erase(cell.find_last_not_of(' ') + 1);
      cells.push_back(cell);
    }
  }
  return cells;
}

void expect_unique(const std::vector<std::string>& labels, const std::string& where) {
  std::set<std::string> seen;
  for (const auto& l : labels)
    EXPECT_TRUE(seen.insert(l).second) << where << ": '" << l << "' twice";
}

void check_run(const run& r, const std::string& what) {
  // Markdown report, narrow and wide.
  for (bool wide : {false, true}) {
    std::ostringstream out;
    report_options o;
    o.wide = wide;
    o.tables = "kernels";
    print_run_report(r, output_format::markdown, out, o);
    // Narrow: the label is the first column; wide: the full name first, the label last.
    const auto cells = markdown_kernel_cells(out.str(), wide);
    EXPECT_EQ(cells.size(), r.kernels.size()) << what;
    expect_unique(cells, what + (wide ? " wide report" : " report"));
  }
  // The chart data behind the SVG, HTML and terminal legends.
  const auto d = make_roofline_data(r);
  std::vector<std::string> chart;
  for (const auto& k : d.kernels)
    chart.push_back(k.label);
  for (const auto& k : d.data_only)
    chart.push_back(k.label);
  expect_unique(chart, what + " chart");
  std::vector<std::string> excluded;
  for (const auto& e : d.excluded)
    excluded.push_back(e.name);
  expect_unique(excluded, what + " not plotted");
  // The terminal key shows the labels the chart data holds.
  EXPECT_FALSE(render_roofline_svg(r).empty());
  const std::string term = render_roofline_terminal(r);
  for (const auto& k : d.kernels) {
    if (k.labelled) {
      EXPECT_NE(term.find(k.label), std::string::npos) << what << ": " << k.label;
    }
  }
}

TEST(UniqueLabels, EveryRecordedRun) {
  const auto runs = every_run();
  EXPECT_GE(runs.size(), 5u);
  for (std::size_t i = 0; i < runs.size(); ++i)
    check_run(runs[i], "run " + std::to_string(i) + " " + runs[i].context.device_name);
}

TEST(UniqueLabels, CollidingNames) { check_run(colliding_run(), "colliding"); }

TEST(UniqueLabels, TopKernelsCarryTheirShare) {
  const run r =
      load_run(std::string(ROOFKIT_TEST_SOURCE_DIR) + "/data/runs/h100-torch-ops-profile.json");
  const run top = top_kernels_run(r, 4);
  ASSERT_EQ(top.kernels.size(), 5u);
  EXPECT_EQ(top.kernels.back().name,
            "other (" + std::to_string(r.kernels.size() - 4) + " kernels)");
  double shares = 0;
  for (std::size_t i = 0; i < top.kernels.size(); ++i) {
    const auto& label = top.kernels[i].display_name;
    ASSERT_EQ(label.back(), '%') << label;
    shares += std::stod(label.substr(label.rfind(' ') + 1));
    if (i > 0 && i + 1 < top.kernels.size()) {
      EXPECT_GE(kernel_gpu_time(top.kernels[i - 1]), kernel_gpu_time(top.kernels[i]));
    }
  }
  EXPECT_NEAR(shares, 100, 3);
  check_run(top, "top 4");
}

TEST(UniqueLabels, ProfiledRunReportFits120Columns) {
  const run r =
      load_run(std::string(ROOFKIT_TEST_SOURCE_DIR) + "/data/runs/h100-torch-ops-profile.json");
  std::ostringstream out;
  print_run_report(r, output_format::markdown, out, {});
  std::istringstream in(out.str());
  std::string line;
  while (std::getline(in, line)) {
    std::size_t chars = 0;
    for (unsigned char c : line)
      chars += (c & 0xC0) != 0x80 ? 1 : 0;
    EXPECT_LE(chars, 120u) << line;
  }
  EXPECT_NE(out.str().find("## Why (diagnosis)"), std::string::npos);
}

} // namespace

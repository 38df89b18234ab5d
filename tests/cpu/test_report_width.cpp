// `roofline-cuda report`'s Markdown fits 120 columns by default (every column with wide), and
// flags kernels whose time is mostly launch overhead.
#include <sstream>

#include <gtest/gtest.h>

#include "roofkit/results.hpp"

namespace {

using namespace roofkit;

std::string report(const run& r, bool wide) {
  std::ostringstream out;
  report_options o;
  o.wide = wide;
  o.source_name = "data/runs/h100-sxm.json";
  print_run_report(r, output_format::markdown, out, o);
  return out.str();
}

std::size_t longest_line(const std::string& text, std::string* which = nullptr) {
  std::size_t best = 0, start = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string::npos)
      end = text.size();
    // Count characters, not bytes.
    std::size_t chars = 0;
    for (std::size_t i = start; i < end; ++i)
      chars += (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80 ? 1 : 0;
    if (chars > best) {
      best = chars;
      if (which)
        *which = text.substr(start, end - start);
    }
    start = end + 1;
  }
  return best;
}

run h100_gpu() {
  return load_run(std::string(ROOFKIT_TEST_SOURCE_DIR) + "/data/runs/h100-sxm.json");
}

TEST(report_width, default_fits_120_columns_and_wide_has_every_column) {
  const run r = h100_gpu();
  std::string line;
  const std::string narrow = report(r, false);
  EXPECT_LE(longest_line(narrow, &line), 120u) << line;
  // Every kernel is still there, with its bound and % of roof.
  for (const auto& k : r.kernels)
    EXPECT_NE(narrow.find(k.name.substr(0, 30)), std::string::npos) << k.name;
  for (const char* h :
       {"| Kernel", "Time us", "GFLOP/s", "AI DRAM", "DRAM GB/s", "Bound", "Roof %", "Flag"})
    EXPECT_NE(narrow.find(h), std::string::npos) << h;
  const std::string wide = report(r, true);
  EXPECT_GT(longest_line(wide), 200u);
  for (const char* h : {"AI L2 (FLOP/B)", "Attainable (GFLOP/s)", "Method", "Note"})
    EXPECT_NE(wide.find(h), std::string::npos) << h;
  EXPECT_EQ(narrow.find("Method"), std::string::npos);
}

TEST(report_width, launch_overhead_is_flagged) {
  run r = h100_gpu();
  ASSERT_FALSE(r.kernels.empty());
  for (auto& k : r.kernels)
    k.overhead_dominated = false;
  r.kernels[0].overhead_dominated = true;
  const std::string narrow = report(r, false);
  const auto row = narrow.find("| " + r.kernels[0].name);
  ASSERT_NE(row, std::string::npos);
  const std::string line = narrow.substr(row, narrow.find('\n', row) - row);
  EXPECT_NE(line.find("overhead"), std::string::npos) << line;
  EXPECT_NE(report(r, true).find("launch overhead dominates: rates are bounds"), std::string::npos);
}

} // namespace

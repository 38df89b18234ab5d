// Batch mode: JSON Lines per CSV row, invalid rows answered in place, 100,000 rows fast.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "roofkit/core.hpp"
#include "roofkit/occupancy.hpp"

namespace {

std::vector<nlohmann::json> batch_lines(const std::string& jsonl) {
  std::vector<nlohmann::json> out;
  std::istringstream in(jsonl);
  for (std::string line; std::getline(in, line);)
    out.push_back(nlohmann::json::parse(line));
  return out;
}

TEST(batch, rows_in_order_with_errors_in_place) {
  const std::string csv = "arch,threads,regs,smem_static,smem_dynamic,carveout\n"
                          "sm_80,512,33,0,0,-1\n"
                          "sm_99,256,32,0,0,-1\n"
                          "9.0,128,32,0,20K,25\n"
                          "\n"
                          "sm_90,0,32,0,0,-1\n"
                          "sm_90,256,32,0,0\n"
                          "sm_90,800,80,0,0,-1\n"
                          "sm_90,256,x,0,0,-1\n"
                          "sm_90,64,16,0,0,-1\r\n";
  std::string out;
  const auto summary = roofkit::run_occupancy_batch(csv, out);
  EXPECT_EQ(summary.rows, 8u);
  EXPECT_EQ(summary.invalid, 4u);
  EXPECT_NE(summary.first_error.find("line 3: unknown architecture 'sm_99'"), std::string::npos)
      << summary.first_error;
  const auto rows = batch_lines(out);
  ASSERT_EQ(rows.size(), 8u);
  EXPECT_EQ(rows[0]["line"], 2);
  EXPECT_EQ(rows[0]["active_blocks_per_sm"], 3);
  EXPECT_EQ(rows[0]["active_warps_per_sm"], 48);
  EXPECT_DOUBLE_EQ(rows[0]["occupancy"].get<double>(), 0.75);
  EXPECT_EQ(rows[0]["limiters"], nlohmann::json::array({"registers"}));
  EXPECT_TRUE(rows[1].contains("error"));
  EXPECT_EQ(rows[2]["active_blocks_per_sm"], 3);
  EXPECT_EQ(rows[2]["smem_dynamic"], 20480);
  EXPECT_NE(rows[3]["error"].get<std::string>().find("threads per block '0'"), std::string::npos);
  EXPECT_NE(rows[4]["error"].get<std::string>().find("5 fields"), std::string::npos);
  EXPECT_EQ(rows[5]["active_blocks_per_sm"], 0);
  EXPECT_TRUE(rows[5].contains("reason"));
  EXPECT_EQ(rows[5]["limiters"], nlohmann::json::array({"registers"}));
  EXPECT_NE(rows[6]["error"].get<std::string>().find("regs 'x'"), std::string::npos);
  EXPECT_EQ(rows[7]["active_blocks_per_sm"], 32);
  EXPECT_EQ(rows[7]["limiters"], nlohmann::json::array({"warps", "blocks"}));
}

TEST(batch, bad_header_is_a_usage_error) {
  std::string out;
  try {
    roofkit::run_occupancy_batch("arch,threads,regs\nsm_90,1,1\n", out);
    FAIL();
  } catch (const roofkit::error& e) {
    EXPECT_EQ(e.code(), roofkit::exit_code::usage);
    EXPECT_NE(std::string(e.what()).find("valid: arch,threads,regs,smem_static,smem_dynamic,"
                                         "carveout"),
              std::string::npos);
  }
  EXPECT_THROW(roofkit::run_occupancy_batch("", out), roofkit::error);
  EXPECT_TRUE(out.empty());
}

std::string big_csv(int rows) {
  std::string csv = "arch,threads,regs,smem_static,smem_dynamic,carveout\n";
  const char* archs[] = {"sm_80", "sm_86", "sm_90", "sm_120", "7.5"};
  for (int i = 0; i < rows; ++i)
    csv += std::string(archs[i % 5]) + "," + std::to_string(32 * (1 + i % 32)) + "," +
           std::to_string(16 + i % 200) + ",0," + std::to_string((i * 37) % 40000) + "," +
           std::to_string(i % 7 == 0 ? -1 : i % 101) + "\n";
  return csv;
}

TEST(batch, hundred_thousand_rows_well_under_a_second) {
  const std::string csv = big_csv(100000);
  std::string out;
  const auto start = std::chrono::steady_clock::now();
  const auto summary = roofkit::run_occupancy_batch(csv, out);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(summary.rows, 100000u);
  EXPECT_EQ(summary.invalid, 0u) << summary.first_error;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 100000);
  std::printf("library: 100000 rows in %.3f s\n", seconds);
  EXPECT_LT(seconds, 1.0); // typically ~0.1 s; generous for a loaded CI machine
}

TEST(batch, command_line_hundred_thousand_rows) {
  namespace fs = std::filesystem;
  const fs::path tool = fs::path(ROOFKIT_TEST_BINARY_DIR) / "tools" / "occupancy-calc";
  if (!fs::exists(tool))
    GTEST_SKIP() << "occupancy-calc not built";
  const fs::path csv_path = fs::temp_directory_path() / "roofkit_batch_100k.csv";
  const fs::path out_path = fs::temp_directory_path() / "roofkit_batch_100k.jsonl";
  std::ofstream(csv_path) << big_csv(100000);
  const std::string command =
      tool.string() + " batch " + csv_path.string() + " > " + out_path.string();
  const auto start = std::chrono::steady_clock::now();
  const int status = std::system(command.c_str());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(status, 0);
  std::ifstream in(out_path);
  std::size_t count = 0;
  for (std::string line; std::getline(in, line);)
    ++count;
  EXPECT_EQ(count, 100000u);
  std::printf("occupancy-calc batch: 100000 rows in %.3f s\n", seconds);
  EXPECT_LT(seconds, 2.0); // process start included; typically ~0.2 s
  fs::remove(csv_path);
  fs::remove(out_path);
}

} // namespace

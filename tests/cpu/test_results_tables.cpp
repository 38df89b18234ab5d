// The printers of a run: provenance, ceilings and kernels tables, and the report.
#include <algorithm>
#include <array>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "roofkit/results.hpp"

namespace {

const std::string sample_path =
    std::string(ROOFKIT_TEST_SOURCE_DIR) + "/tests/data/runs/sample.json";

std::string host_name() {
  std::array<char, 256> name{};
  gethostname(name.data(), name.size() - 1);
  return name.data();
}

std::size_t column(const roofkit::table& t, const std::string& key) {
  for (std::size_t i = 0; i < t.columns.size(); ++i)
    if (t.columns[i].key == key)
      return i;
  ADD_FAILURE() << "no column " << key;
  return 0;
}

TEST(run_tables, provenance_says_where_the_run_comes_from) {
  roofkit::run r;
  r.context.device_name = "NVIDIA H100 80GB HBM3";
  r.context.date = "2026-11-22T10:00:00Z";
  r.context.origin = roofkit::run_origin::recorded;
  EXPECT_EQ(roofkit::provenance_line(r), "Recorded run from NVIDIA H100 80GB HBM3 on 2026-11-22 "
                                         "- not measured on this machine");

  r.context.origin = roofkit::run_origin::measured;
  r.context.host = host_name();
  EXPECT_FALSE(roofkit::run_is_from_elsewhere(r));
  EXPECT_EQ(roofkit::provenance_line(r),
            "Measured on NVIDIA H100 80GB HBM3 on 2026-11-22 (this machine)");
  EXPECT_TRUE(roofkit::run_is_from_elsewhere(r, true));
  EXPECT_NE(roofkit::provenance_line(r, true).find("not measured on this machine"),
            std::string::npos);

  r.context.host.clear();
  EXPECT_NE(roofkit::provenance_line(r).find("does not name its host"), std::string::npos);

  r.context.host = host_name() + "-elsewhere";
  EXPECT_TRUE(roofkit::run_is_from_elsewhere(r));
  EXPECT_NE(roofkit::provenance_line(r).find("Recorded run from NVIDIA H100 80GB HBM3 on "
                                             "2026-11-22 (host "),
            std::string::npos);

  r.context.origin = roofkit::run_origin::analytical;
  EXPECT_NE(roofkit::provenance_line(r).find("Analytical run"), std::string::npos);
  r.context.origin = roofkit::run_origin::imported;
  EXPECT_NE(roofkit::provenance_line(r).find("Nsight Compute"), std::string::npos);
}

TEST(run_tables, clocks_line_names_run_and_ceiling_clocks) {
  const auto r = roofkit::load_run(sample_path);
  EXPECT_EQ(roofkit::clocks_line(r), "Clocks during the run: SM 1980 MHz, memory 2619 MHz; "
                                     "theoretical roofs at SM 1980 MHz, memory 2619 MHz");
  auto mixed = r;
  roofkit::ceiling measured;
  measured.is_memory = true;
  measured.source = roofkit::ceiling_source::measured;
  measured.sm_clock_mhz = 1805;
  measured.mem_clock_mhz = 2619;
  mixed.ceilings.push_back(measured);
  mixed.ceilings.front().sm_clock_mhz = 1830;
  EXPECT_EQ(roofkit::clocks_line(mixed),
            "Clocks during the run: SM 1980 MHz, memory 2619 MHz; theoretical roofs at SM "
            "1830 MHz or 1980 MHz, memory 2619 MHz; measured roofs at SM 1805 MHz, memory "
            "2619 MHz");
  roofkit::run empty;
  EXPECT_NE(roofkit::clocks_line(empty).find("SM not recorded"), std::string::npos);
}

TEST(run_tables, kernels_table_of_the_sample) {
  const auto r = roofkit::load_run(sample_path);
  const auto t = roofkit::kernels_table(r, roofkit::analyze(r));
  EXPECT_EQ(t.id, "kernels");
  ASSERT_EQ(t.rows.size(), 8u);
  // every level of the sample has its own intensity and bandwidth columns, DRAM first
  const auto ai_dram = column(t, "intensity_dram");
  EXPECT_LT(ai_dram, column(t, "intensity_l2"));
  EXPECT_LT(column(t, "intensity_l2"), column(t, "intensity_l1"));
  const auto bound = column(t, "bound");
  const auto pct = column(t, "pct_of_roof");
  const auto time = column(t, "time_us");
  const auto gbs = column(t, "dram_gb_per_s");
  // row 0: copy_coalesced, 536870912 B in 192 us
  EXPECT_EQ(std::get<std::string>(t.rows[0][0]), "copy_coalesced");
  EXPECT_NEAR(std::get<double>(t.rows[0][time]), 192.0, 1e-9);
  EXPECT_NEAR(std::get<double>(t.rows[0][gbs]), 536870912 / 192e-6 / 1e9, 1e-6);
  EXPECT_EQ(std::get<std::string>(t.rows[0][bound]), "DRAM");
  EXPECT_TRUE(std::holds_alternative<std::monostate>(t.rows[0][ai_dram])) << "no FLOPs";
  EXPECT_NEAR(std::get<double>(t.rows[0][pct]), 83.41, 0.01);
  // row 2: sgemm_naive, intensity 2*4096^3 / (3*4096^2*4) = 682.67
  EXPECT_NEAR(std::get<double>(t.rows[2][ai_dram]), 4096.0 * 2 / 12, 1e-9);
  EXPECT_EQ(std::get<std::string>(t.rows[2][bound]), "FP32");
  EXPECT_EQ(std::get<std::string>(t.rows[2][column(t, "source")]), "analytical");
}

TEST(run_tables, failed_kernels_are_highlighted) {
  roofkit::run r;
  roofkit::kernel_result k;
  k.name = "broken";
  k.status = "failed";
  k.message = "mismatch at 3";
  k.time.median_s = 1e-3;
  r.kernels.push_back(k);
  const auto t = roofkit::kernels_table(r, roofkit::analyze(r));
  ASSERT_EQ(t.highlight.size(), 1u);
  EXPECT_TRUE(t.highlight[0]);
  const auto note = std::get<std::string>(t.rows[0][column(t, "note")]);
  EXPECT_NE(note.find("FAILED (failed): mismatch at 3"), std::string::npos) << note;
}

TEST(run_tables, ceilings_table_has_ridges_and_units) {
  const auto r = roofkit::load_run(sample_path);
  const auto t = roofkit::ceilings_table(r);
  ASSERT_EQ(t.rows.size(), 11u);
  const auto value = column(t, "value");
  const auto unit = column(t, "unit");
  const auto ridge = column(t, "ridge_dram");
  // row 1 is FP32: 66.9 TFLOP/s, ridge against DRAM 66.908e12 / 3.35232e12
  EXPECT_EQ(std::get<std::string>(t.rows[1][0]), "FP32");
  EXPECT_NEAR(std::get<double>(t.rows[1][value]), 66.90816, 1e-9);
  EXPECT_EQ(std::get<std::string>(t.rows[1][unit]), "TFLOP/s");
  EXPECT_NEAR(std::get<double>(t.rows[1][ridge]), 66.90816e12 / 3.35232e12, 1e-9);
  EXPECT_EQ(std::get<std::string>(t.rows[7][unit]), "TOP/s"); // tensor INT8
  // memory rows: GB/s, no ridge
  EXPECT_EQ(std::get<std::string>(t.rows[8][0]), "DRAM");
  EXPECT_NEAR(std::get<double>(t.rows[8][value]), 3352.32, 1e-9);
  EXPECT_EQ(std::get<std::string>(t.rows[8][unit]), "GB/s");
  EXPECT_TRUE(std::holds_alternative<std::monostate>(t.rows[8][ridge]));
}

TEST(run_tables, markdown_report_states_the_origin_first) {
  const auto r = roofkit::load_run(sample_path);
  std::ostringstream out;
  roofkit::print_run_report(r, roofkit::output_format::markdown, out, {false, "all", "x.json"});
  const std::string s = out.str();
  EXPECT_EQ(s.rfind("# roofkit run: NVIDIA H100 80GB HBM3\n\n**Analytical run for NVIDIA H100 "
                    "80GB HBM3 on 2026-11-22",
                    0),
            0u)
      << s.substr(0, 300);
  EXPECT_NE(s.find("not measured on this machine"), std::string::npos);
  EXPECT_NE(s.find("Clocks during the run: SM 1980 MHz"), std::string::npos);
  EXPECT_NE(s.find("Note: SAMPLE, NOT A MEASUREMENT"), std::string::npos);
  EXPECT_NE(s.find("## Ceilings"), std::string::npos);
  EXPECT_NE(s.find("## Kernels"), std::string::npos);
  EXPECT_NE(s.find("| copy_strided_32"), std::string::npos);
}

TEST(run_tables, json_and_csv_reports_carry_the_context) {
  const auto r = roofkit::load_run(sample_path);
  std::ostringstream json_out;
  roofkit::print_run_report(r, roofkit::output_format::json, json_out);
  const auto j = nlohmann::json::parse(json_out.str());
  ASSERT_TRUE(j.contains("context"));
  EXPECT_EQ(j["context"][0]["key"], "provenance");
  EXPECT_NE(j["context"][0]["value"].get<std::string>().find("Analytical run"), std::string::npos);
  EXPECT_EQ(j["kernels"].size(), 8u);
  EXPECT_EQ(j["kernels"][4]["name"], "hgemm_tensor");
  EXPECT_EQ(j["kernels"][4]["bound"], "Tensor FP16/BF16");
  EXPECT_EQ(j["ceilings"].size(), 11u);

  std::ostringstream csv_out;
  roofkit::print_run_report(r, roofkit::output_format::csv, csv_out, {false, "kernels", ""});
  const std::string csv = csv_out.str();
  EXPECT_EQ(csv.rfind("name,time_us,gflop_per_s,intensity_dram,", 0), 0u) << csv;
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 9);

  EXPECT_THROW(
      roofkit::print_run_report(r, roofkit::output_format::csv, csv_out, {false, "bogus", ""}),
      std::exception);
}

} // namespace

// The printers of a run: provenance, ceilings and kernels tables, and the report.
#include <algorithm>
#include <array>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "roofkit/core.hpp"
#include "roofkit/results.hpp"

namespace {

const std::string tables_sample_path =
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
  const roofkit::machine_identity here{"0123456789abcdef0123456789abcdef",
                                       {"GPU-11111111-2222-3333-4444-555555555555"}};
  roofkit::run r;
  r.context.device_name = "NVIDIA H100 80GB HBM3";
  r.context.date = "2026-11-22T10:00:00Z";
  r.context.origin = roofkit::run_origin::recorded;
  EXPECT_EQ(roofkit::provenance_line(r, false, here),
            "Recorded run from NVIDIA H100 80GB HBM3 on 2026-11-22 - not measured on this machine");

  // The GPU's UUID decides: one of this machine's GPUs.
  r.context.origin = roofkit::run_origin::measured;
  r.context.host = "vm";
  r.context.gpu_uuid = here.gpu_uuids[0];
  EXPECT_FALSE(roofkit::run_is_from_elsewhere(r, false, here));
  EXPECT_EQ(roofkit::provenance_line(r, false, here),
            "Measured on NVIDIA H100 80GB HBM3 on 2026-11-22 (this machine)");
  EXPECT_TRUE(roofkit::run_is_from_elsewhere(r, true, here));
  EXPECT_NE(roofkit::provenance_line(r, true, here).find("not measured on this machine"),
            std::string::npos);

  // Same machine id, another GPU: elsewhere (the GPU outranks the machine id).
  r.context.machine_id = here.machine_id;
  r.context.gpu_uuid = "GPU-99999999-2222-3333-4444-555555555555";
  EXPECT_TRUE(roofkit::run_is_from_elsewhere(r, false, here));
  EXPECT_EQ(roofkit::provenance_line(r, false, here),
            "Recorded on vm, GPU NVIDIA H100 80GB HBM3, on 2026-11-22 - not measured on this "
            "machine");

  // A run without a GPU UUID (GPU-less analysis): the machine id decides.
  r.context.gpu_uuid.clear();
  EXPECT_FALSE(roofkit::run_is_from_elsewhere(r, false, here));
  r.context.machine_id = "ffffffffffffffffffffffffffffffff";
  EXPECT_TRUE(roofkit::run_is_from_elsewhere(r, false, here));

  // The host name alone never decides: a run naming only a host, even this machine's, is from
  // elsewhere (issue 38: a laptop named "vm" took the H100 run for its own).
  r.context.machine_id.clear();
  r.context.host = host_name();
  EXPECT_TRUE(roofkit::run_is_from_elsewhere(r, false, here));
  EXPECT_TRUE(roofkit::run_is_from_elsewhere(r));
  EXPECT_NE(roofkit::provenance_line(r).find("Recorded on " + host_name() +
                                             ", GPU NVIDIA H100 80GB HBM3, on 2026-11-22 - "
                                             "not measured on this machine"),
            std::string::npos)
      << roofkit::provenance_line(r);
  r.context.host.clear();
  EXPECT_NE(roofkit::provenance_line(r, false, here).find("Recorded on an unnamed host"),
            std::string::npos);

  r.context.origin = roofkit::run_origin::analytical;
  EXPECT_NE(roofkit::provenance_line(r).find("Analytical run"), std::string::npos);
  r.context.origin = roofkit::run_origin::imported;
  EXPECT_NE(roofkit::provenance_line(r).find("Nsight Compute"), std::string::npos);
}

TEST(run_tables, this_machine_reads_the_machine_id) {
  // The identity this process judges by: /etc/machine-id where the machine has one.
  std::ifstream in("/etc/machine-id");
  std::string id;
  in >> id;
  EXPECT_EQ(roofkit::this_machine().machine_id, id);
  EXPECT_EQ(roofkit::machine_id(), id);
}

TEST(run_tables, gpu_uuids_are_formatted_as_nvidia_smi_prints_them) {
  const unsigned char bytes[16] = {0x1a, 0x2b, 0x3c, 0x4d, 0x5e, 0x6f, 0x70, 0x81,
                                   0x92, 0xa3, 0xb4, 0xc5, 0xd6, 0xe7, 0xf8, 0x09};
  EXPECT_EQ(roofkit::format_gpu_uuid(bytes), "GPU-1a2b3c4d-5e6f-7081-92a3-b4c5d6e7f809");
  char signed_bytes[16]; // cudaUUID_t's: bytes above 0x7f negative where char is signed
  for (int i = 0; i < 16; ++i)
    signed_bytes[i] = static_cast<char>(bytes[i]);
  EXPECT_EQ(roofkit::format_gpu_uuid(signed_bytes), "GPU-1a2b3c4d-5e6f-7081-92a3-b4c5d6e7f809");
}

TEST(run_tables, gpu_uuid_machine_id_and_notes_round_trip) {
  auto r = roofkit::load_run(tables_sample_path);
  r.context.gpu_uuid = "GPU-1a2b3c4d-5e6f-7081-92a3-b4c5d6e7f809";
  r.context.machine_id = "0123456789abcdef0123456789abcdef";
  r.context.notes = {"roofs from the H100 SXM datasheet (data/gpus.json): the live device query "
                     "failed (x)"};
  const auto back = roofkit::parse_run(roofkit::to_json_text(r), "round trip");
  EXPECT_EQ(back.context.gpu_uuid, r.context.gpu_uuid);
  EXPECT_EQ(back.context.machine_id, r.context.machine_id);
  EXPECT_EQ(back.context.notes, r.context.notes);
  std::ostringstream report;
  roofkit::print_run_report(back, roofkit::output_format::markdown, report, {});
  EXPECT_NE(report.str().find("Note: roofs from the H100 SXM datasheet"), std::string::npos)
      << report.str();
}

TEST(run_tables, clocks_line_names_run_and_ceiling_clocks) {
  const auto r = roofkit::load_run(tables_sample_path);
  EXPECT_EQ(roofkit::clocks_line(r), "Clocks during the run: SM 1980 MHz, memory 2619 MHz; "
                                     "theoretical roofs at SM 1980 MHz, memory 2619 MHz");
  // One clock per roof group, rounded to whole MHz and deduplicated (issue 38: "SM 1807 MHz or
  // 1811 MHz or ... or 1979 MHz or 1979 MHz").
  auto mixed = r;
  for (auto& c : mixed.ceilings)
    if (!c.is_memory && c.prec == roofkit::precision::tensor_fp16)
      c.sm_clock_mhz = 1830;
  auto add = [&mixed](bool memory, roofkit::precision p, double sm) {
    roofkit::ceiling c;
    c.is_memory = memory;
    c.level = roofkit::memory_level::l2;
    c.prec = p;
    c.source = roofkit::ceiling_source::measured;
    c.sm_clock_mhz = sm;
    c.mem_clock_mhz = 2619.2;
    mixed.ceilings.push_back(c);
  };
  add(false, roofkit::precision::fp32, 1979.4);
  add(false, roofkit::precision::fp64, 1979.2);
  add(false, roofkit::precision::tensor_fp16, 1807.3);
  add(false, roofkit::precision::tensor_tf32, 1811.0);
  add(true, roofkit::precision::fp32, 1979.0);
  EXPECT_EQ(roofkit::clocks_line(mixed),
            "Clocks during the run: SM 1980 MHz, memory 2619 MHz; theoretical roofs at SM "
            "1980 MHz (CUDA cores), 1830-1980 MHz (tensor cores), 1980 MHz (L1/L2), memory "
            "2619 MHz; measured roofs at SM 1979 MHz (CUDA cores), 1807-1811 MHz (tensor cores), "
            "1979 MHz (L1/L2), memory 2619 MHz");
  roofkit::run empty;
  EXPECT_NE(roofkit::clocks_line(empty).find("SM not recorded"), std::string::npos);
}

TEST(run_tables, kernels_table_of_the_sample) {
  const auto r = roofkit::load_run(tables_sample_path);
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
  const auto r = roofkit::load_run(tables_sample_path);
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
  const auto r = roofkit::load_run(tables_sample_path);
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
  const auto r = roofkit::load_run(tables_sample_path);
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

// The machine file round trip, the choice of roofs among measurements, and their use in a run.
#include <gtest/gtest.h>

#include "roofkit/ceilings.hpp"
#include "roofkit/core.hpp"

using namespace roofkit;

namespace {

ceiling_measurement machine_memory(const char* name, memory_level l, double v,
                                   bool reference = false) {
  ceiling_measurement m;
  m.name = name;
  m.unit = "B/s";
  m.value = v;
  m.level = l;
  m.reference = reference;
  m.sm_clock_mhz = 1980;
  return m;
}

ceiling_measurement machine_compute(const char* name, precision p, double v, double mhz) {
  ceiling_measurement m;
  m.name = name;
  m.unit = "FLOP/s";
  m.value = v;
  m.prec = p;
  m.sm_clock_mhz = mhz;
  return m;
}

const ceiling* find(const std::vector<ceiling>& cs, precision p) {
  for (const auto& c : cs)
    if (!c.is_memory && c.prec == p)
      return &c;
  return nullptr;
}

const ceiling* find(const std::vector<ceiling>& cs, memory_level l) {
  for (const auto& c : cs)
    if (c.is_memory && c.level == l)
      return &c;
  return nullptr;
}

} // namespace

TEST(best_ceilings, best_passing_candidate_per_roof_with_its_clock) {
  std::vector<ceiling_measurement> ms = {
      machine_memory("DRAM read stream", memory_level::dram, 3.21e12),
      machine_memory("DRAM copy stream", memory_level::dram, 2.95e12),
      machine_memory("cudaMemcpy D2D", memory_level::dram, 3.05e12, true),
      machine_memory("L2 plateau", memory_level::l2, 8.3e12),
      machine_compute("FP16x2 FMA 8 chains", precision::fp16, 66e12, 1980),
      machine_compute("FP16x2 FMA 16 chains", precision::fp16, 131e12, 1965),
      machine_compute("wgmma BF16", precision::tensor_fp16, 900e12, 1755),
      machine_compute("cuBLAS BF16 GEMM", precision::tensor_fp16, 950e12, 0),
  };
  ms.back().reference = true;
  ms.push_back(machine_compute("broken FP32", precision::fp32, 99e12, 1980));
  ms.back().check = "12 failed result checks";
  const auto roofs = best_ceilings(ms, 2619);
  ASSERT_NE(find(roofs, memory_level::dram), nullptr);
  EXPECT_DOUBLE_EQ(find(roofs, memory_level::dram)->value, 3.21e12);
  EXPECT_DOUBLE_EQ(find(roofs, memory_level::dram)->mem_clock_mhz, 2619);
  EXPECT_DOUBLE_EQ(find(roofs, memory_level::l2)->value, 8.3e12);
  const ceiling* fp16 = find(roofs, precision::fp16);
  ASSERT_NE(fp16, nullptr);
  EXPECT_DOUBLE_EQ(fp16->value, 131e12);
  EXPECT_DOUBLE_EQ(fp16->sm_clock_mhz, 1965);
  EXPECT_NE(fp16->method.find("16 chains"), std::string::npos);
  EXPECT_EQ(fp16->source, ceiling_source::measured);
  // A GEMM is a reference, never a roof; a failed check never becomes one.
  EXPECT_DOUBLE_EQ(find(roofs, precision::tensor_fp16)->value, 900e12);
  EXPECT_EQ(find(roofs, precision::fp32), nullptr);
}

TEST(best_ceilings, dram_roof_is_at_least_cudamemcpy) {
  const auto roofs =
      best_ceilings({machine_memory("DRAM copy stream", memory_level::dram, 2.9e12),
                     machine_memory("cudaMemcpy D2D", memory_level::dram, 3.0e12, true)},
                    2619);
  ASSERT_EQ(roofs.size(), 1u);
  EXPECT_DOUBLE_EQ(roofs[0].value, 3.0e12);
  EXPECT_NE(roofs[0].method.find("cudaMemcpy"), std::string::npos);
}

TEST(machine_file, round_trip_keeps_values_clocks_and_source) {
  ceilings_result r;
  r.measurements = {machine_memory("DRAM read stream", memory_level::dram, 3.2e12),
                    machine_compute("BF16x2 FMA 16 chains", precision::bf16, 130e12, 1980),
                    machine_compute("wgmma INT8", precision::tensor_int8, 1.7e15, 1700)};
  r.ceilings = best_ceilings(r.measurements, 2619);
  const auto m = make_machine_ceilings(r, "NVIDIA H100 80GB HBM3", 9, 0, 132, "roofline-cuda x");
  EXPECT_EQ(m.date.size(), 20u);
  const std::string text = machine_json_text(m);
  EXPECT_NE(text.find("\"schema\": \"roofkit.machine/1\""), std::string::npos);
  EXPECT_NE(text.find("\"unit\": \"OP/s\""), std::string::npos);
  const auto back = parse_machine_ceilings(text, "m.json");
  EXPECT_EQ(back.device_name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(back.cc_major, 9);
  EXPECT_EQ(back.sm_count, 132);
  ASSERT_EQ(back.ceilings.size(), 3u);
  const ceiling* bf16 = find(back.ceilings, precision::bf16);
  ASSERT_NE(bf16, nullptr);
  EXPECT_DOUBLE_EQ(bf16->value, 130e12);
  EXPECT_DOUBLE_EQ(bf16->sm_clock_mhz, 1980);
  EXPECT_EQ(bf16->source, ceiling_source::measured);
  EXPECT_DOUBLE_EQ(find(back.ceilings, memory_level::dram)->mem_clock_mhz, 2619);
}

TEST(machine_file, bad_files_name_the_problem) {
  EXPECT_THROW(parse_machine_ceilings("{", "m.json"), roofkit::error);
  try {
    parse_machine_ceilings(R"({"schema": "roofkit.run/1", "ceilings": []})", "m.json");
    FAIL();
  } catch (const roofkit::error& e) {
    EXPECT_EQ(e.code(), exit_code::usage);
    EXPECT_NE(std::string(e.what()).find("roofkit.run/1"), std::string::npos) << e.what();
  }
  try {
    parse_machine_ceilings(
        R"({"schema": "roofkit.machine/1", "ceilings": [{"precision": "fp128", "value": 1}]})",
        "m.json");
    FAIL();
  } catch (const roofkit::error& e) {
    EXPECT_NE(std::string(e.what()).find("fp128"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_machine_ceilings(
                   R"({"schema": "roofkit.machine/1", "ceilings": [{"level": "l2", "value": -1}]})",
                   "m.json"),
               roofkit::error);
  EXPECT_THROW(load_machine_ceilings("/nonexistent/machine.json"), roofkit::error);
}

TEST(machine_file, measured_roofs_replace_measured_and_keep_theoretical) {
  std::vector<ceiling> roofs(3);
  roofs[0].prec = precision::fp32;
  roofs[0].value = 66.9e12;
  roofs[1].prec = precision::fp32;
  roofs[1].value = 60e12;
  roofs[1].source = ceiling_source::measured;
  roofs[2].is_memory = true;
  roofs[2].level = memory_level::l2;
  roofs[2].value = 12.4e12;
  std::vector<ceiling> measured(1);
  measured[0].is_memory = true;
  measured[0].level = memory_level::l2;
  measured[0].value = 8.4e12;
  measured[0].source = ceiling_source::measured;
  apply_measured_ceilings(roofs, measured);
  ASSERT_EQ(roofs.size(), 3u);
  EXPECT_DOUBLE_EQ(roofs[0].value, 66.9e12);
  EXPECT_DOUBLE_EQ(roofs[1].value, 12.4e12);
  EXPECT_DOUBLE_EQ(roofs[2].value, 8.4e12);
  EXPECT_EQ(roofs[2].source, ceiling_source::measured);
}

TEST(ceilings_tables, comparison_scales_theory_to_the_measured_clock_and_divides_by_the_reference) {
  ceilings_result r;
  auto fp32 = machine_compute("FP32 FMA 16 chains", precision::fp32, 64e12, 1900);
  fp32.theoretical = 66.9e12;
  fp32.theoretical_clock_mhz = 1980;
  auto wg = machine_compute("wgmma BF16", precision::tensor_fp16, 800e12, 1700);
  wg.theoretical = 989.4e12;
  wg.theoretical_clock_mhz = 1830;
  auto gemm = machine_compute("cuBLAS BF16 GEMM", precision::tensor_fp16, 780e12, 1600);
  gemm.reference = true;
  r.measurements = {fp32, wg, gemm};
  r.ceilings = best_ceilings(r.measurements, 2619);
  const table t = comparison_table(r);
  ASSERT_EQ(t.rows.size(), 2u);
  for (const auto& row : t.rows) {
    const std::string roof = std::get<std::string>(row[0]);
    if (roof == "fp32") {
      EXPECT_NEAR(std::get<double>(row[4]), 100 * 64e12 / (66.9e12 * 1900 / 1980), 1e-9);
      EXPECT_TRUE(std::holds_alternative<std::monostate>(row[5]));
    } else {
      EXPECT_EQ(roof, "tensor_fp16");
      EXPECT_NEAR(std::get<double>(row[4]), 100 * 800e12 / (989.4e12 * 1700 / 1830), 1e-9);
      EXPECT_EQ(std::get<std::string>(row[5]), "cuBLAS BF16 GEMM");
      EXPECT_NEAR(std::get<double>(row[8]), 800.0 / 780.0, 1e-12);
    }
  }
  const table m = measured_ceilings_table(r);
  EXPECT_EQ(m.rows.size(), 3u);
}

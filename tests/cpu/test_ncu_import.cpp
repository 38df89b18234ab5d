// Import of `ncu --csv --page raw` output: units, separators, FLOP formulas, merging, errors.
#include <algorithm>
#include <array>

#include <gtest/gtest.h>

#include "roofkit/core.hpp"
#include "roofkit/ncu_import.hpp"
#include "roofkit/roofline.hpp"

namespace {

using roofkit::memory_level;
using roofkit::precision;

const std::string ncu_sample_path =
    std::string(ROOFKIT_TEST_SOURCE_DIR) + "/tests/data/ncu/h100-sample-raw.csv";

const roofkit::kernel_result& by_name(const roofkit::run& r, const std::string& name) {
  for (const auto& k : r.kernels)
    if (k.name == name)
      return k;
  throw std::runtime_error("no kernel " + name);
}

const roofkit::ceiling* imported_compute(const roofkit::run& r, precision p) {
  return roofkit::find_compute_ceiling(r.ceilings, p);
}

std::string import_error(const std::string& text) {
  try {
    roofkit::import_ncu_csv(text, "bad.csv");
  } catch (const roofkit::error& e) {
    EXPECT_EQ(e.code(), roofkit::exit_code::usage);
    return e.what();
  }
  ADD_FAILURE() << "expected a usage_error";
  return {};
}

TEST(ncu_import, values_and_units) {
  EXPECT_DOUBLE_EQ(*roofkit::ncu_value("1,234,567", "byte"), 1234567.0);
  EXPECT_DOUBLE_EQ(*roofkit::ncu_value("2.5", "Kbyte"), 2500.0);
  EXPECT_DOUBLE_EQ(*roofkit::ncu_value("268.44", "Mbyte"), 268.44e6);
  EXPECT_DOUBLE_EQ(*roofkit::ncu_value("1.5", "Gbyte"), 1.5e9);
  EXPECT_DOUBLE_EQ(*roofkit::ncu_value("15,620.40", "usecond"), 15620.40e-6);
  EXPECT_DOUBLE_EQ(*roofkit::ncu_value("3.2", "msecond"), 3.2e-3);
  EXPECT_DOUBLE_EQ(*roofkit::ncu_value("850", "nsecond"), 850e-9);
  EXPECT_DOUBLE_EQ(*roofkit::ncu_value("1.98", "cycle/nsecond"), 1.98e9);
  EXPECT_DOUBLE_EQ(*roofkit::ncu_value("1.98", "cycle/usecond"), 1.98e6);
  EXPECT_DOUBLE_EQ(*roofkit::ncu_value("3.35", "Tbyte/second"), 3.35e12);
  EXPECT_DOUBLE_EQ(*roofkit::ncu_value("1.59", "Ghz"), 1.59e9);
  EXPECT_DOUBLE_EQ(*roofkit::ncu_value("68,719.48", "Minst"), 68719.48e6);
  EXPECT_DOUBLE_EQ(*roofkit::ncu_value("16,896", "inst/cycle"), 16896.0);
  EXPECT_DOUBLE_EQ(*roofkit::ncu_value("8.19", "Kbyte/block"), 8190.0);
  EXPECT_DOUBLE_EQ(*roofkit::ncu_value("86.42", "%"), 86.42);
  EXPECT_DOUBLE_EQ(*roofkit::ncu_value(" 7 ", ""), 7.0);
  EXPECT_DOUBLE_EQ(*roofkit::ncu_value("4.0e-05", "second"), 4e-5);
  EXPECT_FALSE(roofkit::ncu_value("n/a", "byte"));
  EXPECT_FALSE(roofkit::ncu_value("", "byte"));
  EXPECT_FALSE(roofkit::ncu_value("NVIDIA H100 80GB HBM3", ""));
}

TEST(ncu_import, sample_csv_builds_a_run) {
  const auto r = roofkit::import_ncu_csv_file(ncu_sample_path);
  EXPECT_EQ(r.context.origin, roofkit::run_origin::imported);
  EXPECT_EQ(r.context.device_name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(r.context.host, "gpu-node-07");
  EXPECT_EQ(r.context.cc_major, 9);
  EXPECT_EQ(r.context.cc_minor, 0);
  EXPECT_EQ(r.context.sm_count, 132);
  EXPECT_NEAR(r.context.sm_clock_mhz, 1590, 1e-9);
  EXPECT_NEAR(r.context.mem_clock_mhz, 2620, 1e-9);
  EXPECT_EQ(r.context.extra.at("imported_from"), ncu_sample_path);

  // Six launches, the two of copy_coalesced merged.
  ASSERT_EQ(r.kernels.size(), 5u);
  EXPECT_EQ(r.kernels[0].name, "copy_coalesced");
  EXPECT_EQ(r.kernels[4].name, "half2_axpy");

  const auto& copy = by_name(r, "copy_coalesced");
  EXPECT_EQ(copy.time.repetitions, 2);
  EXPECT_NEAR(copy.time.median_s, (201.35e-6 + 199.87e-6) / 2, 1e-15);
  EXPECT_NEAR(copy.time.min_s, 199.87e-6, 1e-15);
  EXPECT_NEAR(copy.time.max_s, 201.35e-6, 1e-15);
  EXPECT_TRUE(copy.flops.empty());
  EXPECT_NEAR(copy.bytes.at(memory_level::dram), 2 * 268.44e6, 1);
  EXPECT_NEAR(copy.bytes.at(memory_level::l2), 0.54e9, 1);
  EXPECT_NEAR(*copy.occupancy_achieved, (0.8642 + 0.8610) / 2, 1e-12);
  EXPECT_NEAR(*copy.occupancy_theoretical, 1.0, 1e-12);
  EXPECT_EQ(copy.launch.grid, (std::array<std::uint32_t, 3>{262144, 1, 1}));
  EXPECT_EQ(copy.launch.block, (std::array<std::uint32_t, 3>{256, 1, 1}));
  EXPECT_EQ(copy.launch.registers_per_thread, 16u);
  EXPECT_EQ(copy.source, roofkit::work_source::imported);
  EXPECT_NEAR(copy.counters.at("dram__bytes_read.sum"), 268.44e6, 1);

  const auto& gemm = by_name(r, "sgemm_tiled");
  EXPECT_NEAR(gemm.flops.at(precision::fp32), 2 * 68719.48e6, 1); // FFMA counts 2
  EXPECT_NEAR(gemm.time.median_s, 15620.40e-6, 1e-12);
  EXPECT_NEAR(gemm.bytes.at(memory_level::dram), 235.93e6 + 67.11e6, 1);
  EXPECT_NEAR(gemm.bytes.at(memory_level::l1), 141.21e9, 1);
  EXPECT_EQ(gemm.launch.static_smem_bytes, 8190u);
  EXPECT_EQ(gemm.launch.grid, (std::array<std::uint32_t, 3>{128, 128, 1}));

  const auto& hgemm = by_name(r, "hgemm_tensor_kernel");
  EXPECT_NEAR(hgemm.flops.at(precision::tensor_fp16), 1099511627776.0, 1);
  EXPECT_NEAR(hgemm.flops.at(precision::fp32), 2 * 16.78e6, 1);
  EXPECT_EQ(hgemm.launch.dynamic_smem_bytes, 98300u);
  EXPECT_EQ(hgemm.launch.registers_per_thread, 168u);

  EXPECT_NEAR(by_name(r, "dot_fp64").flops.at(precision::fp64), 2 * 33554432.0 + 1048576, 1e-6);
  EXPECT_NEAR(by_name(r, "half2_axpy").flops.at(precision::fp16), 4 * 16777216.0, 1e-6);

  // Ceilings from the peak metrics at the measured (base) clocks.
  EXPECT_NEAR(imported_compute(r, precision::fp32)->value, 16896 * 2 * 1.59e9, 1e3);
  EXPECT_NEAR(imported_compute(r, precision::fp64)->value, 8448 * 2 * 1.59e9, 1e3);
  EXPECT_NEAR(imported_compute(r, precision::fp16)->value, 16896 * 4 * 1.59e9, 1e3);
  // The tensor family's peak counts sparse operations (1,081,344 per cycle on GH100): the roof
  // is dense, half of it.
  EXPECT_NEAR(imported_compute(r, precision::tensor_fp16)->value, 540672 * 1.59e9, 1e3);
  EXPECT_NEAR(roofkit::find_memory_ceiling(r.ceilings, memory_level::dram)->value, 1280 * 2.62e9,
              1e3);
  EXPECT_NEAR(roofkit::find_memory_ceiling(r.ceilings, memory_level::l2)->value, 5120 * 1.59e9,
              1e3);
  EXPECT_NEAR(roofkit::find_memory_ceiling(r.ceilings, memory_level::l1)->value, 16896 * 1.59e9,
              1e3);
  EXPECT_NEAR(imported_compute(r, precision::fp32)->sm_clock_mhz, 1590, 1e-9);

  // ...and the run places like any other.
  const auto placed = roofkit::analyze(r);
  EXPECT_EQ(placed[0].bound, "dram");
  EXPECT_NEAR(placed[0].pct_of_roof, 2 * 268.44e6 / copy.time.median_s / (1280 * 2.62e9) * 100,
              1e-6);
  EXPECT_EQ(placed[2].bound, "tensor_fp16"); // hgemm, mixed with a little FP32
  EXPECT_TRUE(placed[2].mixed_precision);
}

TEST(ncu_import, scalar_half_convention_halves_fp16) {
  const auto r = roofkit::import_ncu_csv_file(ncu_sample_path, {false});
  EXPECT_NEAR(by_name(r, "half2_axpy").flops.at(precision::fp16), 2 * 16777216.0, 1e-6);
  EXPECT_NEAR(imported_compute(r, precision::fp16)->value, 16896 * 2 * 1.59e9, 1e3);
}

const std::string header =
    R"csv("ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","dram__bytes.sum","gpu__time_duration.sum","smsp__sass_thread_inst_executed_op_ffma_pred_on.sum")csv"
    "\n";
const std::string units = R"csv("","","","","","","","","","","","Kbyte","msecond","inst")csv"
                          "\n";

TEST(ncu_import, quoted_names_crlf_and_relaunch_configs) {
  const std::string text =
      header + units +
      R"csv("0","1","app","h","void gemm<float, 64>(const float *, float *)","1","7","(64, 1, 1)","(10, 1, 1)","0","8.0","1,000","2","500")csv"
      "\r\n"
      R"csv("1","1","app","h","void gemm<float, 64>(const float *, float *)","1","7","(128, 1, 1)","(5, 1, 1)","0","8.0","1,000","1","500")csv"
      "\r\n";
  std::string crlf;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' && (i == 0 || text[i - 1] != '\r'))
      crlf += '\r';
    crlf += text[i];
  }
  const auto r = roofkit::import_ncu_csv(crlf, "x.csv");
  ASSERT_EQ(r.kernels.size(), 2u);
  EXPECT_EQ(r.kernels[0].name,
            "void gemm<float, 64>(const float *, float *) [grid (10, 1, 1) block (64, 1, 1)]");
  EXPECT_DOUBLE_EQ(r.kernels[0].bytes.at(memory_level::dram), 1e6);
  EXPECT_DOUBLE_EQ(r.kernels[0].time.median_s, 2e-3);
  EXPECT_DOUBLE_EQ(r.kernels[0].flops.at(precision::fp32), 1000.0);
  EXPECT_DOUBLE_EQ(r.kernels[1].time.median_s, 1e-3);
  EXPECT_EQ(r.context.cc_major, 8);
  EXPECT_TRUE(r.ceilings.empty());
  EXPECT_NE(r.context.extra.at("ceilings").find("none"), std::string::npos);
}

TEST(ncu_import, rates_are_turned_into_amounts) {
  const std::string text =
      R"csv("ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","dram__bytes.sum.per_second","gpu__time_duration.sum")csv"
      "\n"
      R"csv("","","","","","","","","","","","Tbyte/second","usecond")csv"
      "\n"
      R"csv("0","1","app","h","copy","1","7","(256, 1, 1)","(1, 1, 1)","0","9.0","3","100")csv"
      "\n";
  const auto r = roofkit::import_ncu_csv(text, "rates.csv");
  EXPECT_NEAR(r.kernels[0].bytes.at(memory_level::dram), 3e12 * 100e-6, 1e-3);
}

TEST(ncu_import, bad_inputs_are_usage_errors) {
  EXPECT_NE(import_error("hello\nworld\n").find("'bad.csv': not an ncu CSV export"),
            std::string::npos);
  EXPECT_NE(
      import_error(
          R"csv("ID","Process ID","Process Name","Host Name","Kernel Name","dram__bytes.sum")csv"
          "\n")
          .find("no kernel time"),
      std::string::npos);
  EXPECT_NE(
      import_error(
          R"csv("ID","Process ID","Process Name","Host Name","Kernel Name","gpu__time_duration.sum","sm__throughput.avg.pct_of_peak_sustained_elapsed")csv"
          "\n")
          .find("none of the roofline metrics"),
      std::string::npos);
  EXPECT_NE(import_error(header + units).find("no kernel rows"), std::string::npos);
  EXPECT_NE(import_error(header + units + R"csv("0","1","app","h","k","1","7")csv" + "\n")
                .find("line 3: 7 fields, the header has 14"),
            std::string::npos);
  EXPECT_NE(
      import_error(
          header + units +
          R"csv("0","1","app","h","k","1","7","(1, 1, 1)","(1, 1, 1)","0","9.0","1","n/a","1")csv" +
          "\n")
          .find("line 3: kernel 'k' has no value for gpu__time_duration.sum"),
      std::string::npos);
}

TEST(ncu_import, metric_list_covers_what_the_import_reads) {
  const auto m = roofkit::ncu_roofline_metrics();
  for (const char* name :
       {"gpu__time_duration.sum", "dram__bytes.sum", "lts__t_bytes.sum", "l1tex__t_bytes.sum",
        "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
        "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum", "sm__cycles_elapsed.avg.per_second"})
    EXPECT_NE(std::find(m.begin(), m.end(), name), m.end()) << name;
}

} // namespace

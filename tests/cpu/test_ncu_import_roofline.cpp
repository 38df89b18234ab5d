// Imports an export shaped like `ncu --set roofline --csv --page raw` of a PyTorch script
// (tests/data/ncu/roofline-set-synthetic.csv, see its README): FLOPs only as
// `.sum.per_cycle_elapsed` rates, tensor work with sparsity variants and a peak that counts
// sparse operations, hierarchical L1/L2 counters, kernels at different SM clocks. Each kernel is
// checked against ncu's own numbers in the same file: achieved FLOP/s (the rate times 2 for an
// FMA, times the SM clock) and tensor-pipe utilisation.
#include <gtest/gtest.h>

#include <cmath>

#include "roofkit/ncu_import.hpp"
#include "roofkit/roofline.hpp"

namespace {

using roofkit::memory_level;
using roofkit::precision;

const char* roofline_export_path =
    ROOFKIT_TEST_SOURCE_DIR "/tests/data/ncu/roofline-set-synthetic.csv";

const roofkit::kernel_result& kernel_named(const roofkit::run& r, const std::string& start) {
  for (const auto& k : r.kernels)
    if (k.name.rfind(start, 0) == 0)
      return k;
  throw std::runtime_error("no kernel " + start);
}

double achieved(const roofkit::kernel_result& k, precision p) {
  return k.flops.at(p) / k.time.median_s;
}

TEST(ncu_import_roofline_set, flops_from_per_cycle_elapsed_rates) {
  const auto r = roofkit::import_ncu_csv_file(roofline_export_path);
  ASSERT_EQ(r.kernels.size(), 3u);
  // ncu's achieved FLOP/s for the FP32 GEMM: 2 x FFMA per cycle x SM clock, plus the FADDs.
  const auto& sgemm = kernel_named(r, "ampere_sgemm");
  const double ncu_fp32 = (2 * 14529.91 + 12.50) * 1.76e9;
  EXPECT_NEAR(achieved(sgemm, precision::fp32) / ncu_fp32, 1.0, 1e-12);
  EXPECT_NEAR(ncu_fp32, 51.1e12, 0.1e12);
  // Softmax: FADD and FMUL only, at its own 1.98 GHz clock.
  const auto& softmax = kernel_named(r, "void at::native::");
  EXPECT_NEAR(achieved(softmax, precision::fp32) / ((1210.53 + 605.26) * 1.98e9), 1.0, 1e-12);
  // Before the fix 2 of 3 kernels had no FLOPs; now none is "data movement only".
  for (const auto& k : r.kernels)
    EXPECT_FALSE(k.flops.empty()) << k.name;
}

TEST(ncu_import_roofline_set, tensor_work_is_dense_against_a_dense_roof) {
  const auto r = roofkit::import_ncu_csv_file(roofline_export_path);
  const auto& gemm = kernel_named(r, "nvjet_hsh");
  // Dense ops from the _sparsity_off counter; the sparse counter is zero and kept apart.
  EXPECT_NEAR(achieved(gemm, precision::tensor_fp16) / (486604.80 * 1.76e9), 1.0, 1e-12);
  EXPECT_EQ(gemm.counters.count("roofkit__sparse_tensor_ops_tensor_fp16"), 0u);
  const roofkit::ceiling* roof = roofkit::find_compute_ceiling(r.ceilings, precision::tensor_fp16);
  ASSERT_NE(roof, nullptr);
  // The family's peak counts sparse operations: the dense roof is half of it.
  EXPECT_NEAR(roof->value / (1081344.0 / 2 * 1.76e9), 1.0, 1e-12);
  EXPECT_NE(roof->method.find("dense"), std::string::npos);
  // % of roof agrees with ncu's tensor-pipe utilisation in the same row (90.02%).
  const auto placements = roofkit::analyze(r);
  for (std::size_t i = 0; i < r.kernels.size(); ++i)
    if (&r.kernels[i] == &gemm) {
      EXPECT_EQ(placements[i].bound, "tensor_fp16");
      const double pipe = gemm.counters.at(
          "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed");
      EXPECT_NEAR(placements[i].pct_of_roof, pipe, 0.5);
    }
}

TEST(ncu_import_roofline_set, hierarchical_bytes_and_clocks_per_kernel) {
  const auto r = roofkit::import_ncu_csv_file(roofline_export_path);
  const auto& sgemm = kernel_named(r, "ampere_sgemm");
  const double t = 2700.03e-6;
  EXPECT_NEAR(sgemm.bytes.at(memory_level::dram) / (0.11e12 * t), 1.0, 1e-12);
  EXPECT_NEAR(sgemm.bytes.at(memory_level::l2) / (32 * 40.21e9 * t), 1.0, 1e-12);
  EXPECT_NEAR(sgemm.bytes.at(memory_level::l1) / (128 * 120.70e9 * t), 1.0, 1e-12);
  ASSERT_TRUE(sgemm.sm_clock_mhz.has_value());
  EXPECT_DOUBLE_EQ(*sgemm.sm_clock_mhz, 1760);
  EXPECT_DOUBLE_EQ(*kernel_named(r, "void at::native::").sm_clock_mhz, 1980);
  const roofkit::ceiling* l2 = roofkit::find_memory_ceiling(r.ceilings, memory_level::l2);
  ASSERT_NE(l2, nullptr);
  EXPECT_NEAR(l2->value / (32 * 192 * 1.86e9), 1.0, 1e-12);
}

} // namespace

// Imports a real `ncu --set roofline --csv --page raw` export of tests/apps/torch_ops.py on the
// H100 (tests/data/ncu/torch-ops-roofline-raw.csv: BF16 and FP32 matmuls, softmax, layer norm,
// an FFT convolution and an add; made by validation/scripts/profile-evidence.sh) and checks every
// kernel against ncu's own numbers in the same row: achieved FP32 and FP64 FLOP/s (the
// `.sum.per_cycle_elapsed` instruction rates, FMAs twice, times the SM clock) and, for the tensor
// GEMM, its dense tensor rate and the tensor-pipe utilisation.
#include <gtest/gtest.h>

#include <string>

#include "roofkit/ncu_import.hpp"
#include "roofkit/roofline.hpp"

namespace {

using roofkit::precision;

const char* torch_export_path =
    ROOFKIT_TEST_SOURCE_DIR "/tests/data/ncu/torch-ops-roofline-raw.csv";

double counter_value(const roofkit::kernel_result& k, const std::string& name) {
  const auto it = k.counters.find(name);
  return it == k.counters.end() ? 0.0 : it->second;
}

// ncu's achieved FLOP/s of one precision from the roofline section's rates.
double ncu_flops_per_s(const roofkit::kernel_result& k, const std::string& p) {
  const std::string pre = "smsp__sass_thread_inst_executed_op_";
  const std::string post = "_pred_on.sum.per_cycle_elapsed";
  const double per_cycle = counter_value(k, pre + p + "add" + post) +
                           counter_value(k, pre + p + "mul" + post) +
                           2 * counter_value(k, pre + p + "fma" + post);
  return per_cycle * counter_value(k, "smsp__cycles_elapsed.avg.per_second");
}

double achieved_or_zero(const roofkit::kernel_result& k, precision p) {
  const auto it = k.flops.find(p);
  return it == k.flops.end() ? 0.0 : it->second / k.time.median_s;
}

TEST(ncu_import_torch, every_kernel_matches_ncus_own_flop_rates) {
  const auto r = roofkit::import_ncu_csv_file(torch_export_path);
  ASSERT_EQ(r.kernels.size(), 10u);
  int with_fp32 = 0;
  for (const auto& k : r.kernels) {
    SCOPED_TRACE(k.name);
    EXPECT_FALSE(k.flops.empty()); // nothing is "data movement only"
    const double fp32 = ncu_flops_per_s(k, "f");
    const double fp64 = ncu_flops_per_s(k, "d");
    // The export rounds rates to two decimals: equal to a part in a million.
    EXPECT_NEAR(achieved_or_zero(k, precision::fp32), fp32, 1e-6 * fp32);
    EXPECT_NEAR(achieved_or_zero(k, precision::fp64), fp64, 1e-6 * fp64);
    with_fp32 += fp32 > 0;
  }
  EXPECT_GE(with_fp32, 8);
}

TEST(ncu_import_torch, fp32_gemm_runs_at_51_tflops) {
  const auto r = roofkit::import_ncu_csv_file(torch_export_path);
  for (const auto& k : r.kernels)
    if (k.name.rfind("sm80_xmma_gemm_f32f32", 0) == 0) {
      EXPECT_NEAR(achieved_or_zero(k, precision::fp32), 51.59e12, 0.01e12);
      return;
    }
  FAIL() << "no FP32 GEMM in the export";
}

TEST(ncu_import_torch, bf16_gemm_is_dense_tensor_work_at_ncus_pipe_utilisation) {
  const auto r = roofkit::import_ncu_csv_file(torch_export_path);
  const auto placements = roofkit::analyze(r);
  bool found = false;
  for (std::size_t i = 0; i < r.kernels.size(); ++i) {
    const auto& k = r.kernels[i];
    if (k.name.rfind("nvjet_sm90", 0) != 0)
      continue;
    found = true;
    const double dense = counter_value(
        k, "sm__ops_path_tensor_op_hgmma_src_bf16_dst_fp32_sparsity_off.sum.per_second");
    EXPECT_NEAR(dense, 785.04e12, 0.01e12);
    EXPECT_NEAR(achieved_or_zero(k, precision::tensor_fp16), dense, 1e-9 * dense);
    EXPECT_EQ(placements[i].bound, "tensor_fp16");
    // ncu: tensor pipe 89.94% busy; the roof is taken at the kernel's own 1614 MHz clock.
    const double pipe =
        counter_value(k, "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed");
    EXPECT_NEAR(pipe, 89.94, 0.01);
    EXPECT_NEAR(placements[i].pct_of_roof, pipe, 0.5);
  }
  EXPECT_TRUE(found);
}

} // namespace

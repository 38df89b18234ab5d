// Imports a real `ncu --csv --page raw` export made on the H100 by scripts/gpu-check.sh (four
// bundled kernels, each launched twice: once verified, once timed; the importer groups the two
// launches of one kernel and configuration into one kernel with n = 2).
#include <gtest/gtest.h>

#include "roofkit/ncu_import.hpp"
#include "roofkit/roofline.hpp"

namespace {

const char* h100_export_path = ROOFKIT_TEST_SOURCE_DIR "/tests/data/ncu/h100-raw.csv";

TEST(ncu_import_h100, reads_every_kernel_row_with_units) {
  const roofkit::run r = roofkit::import_ncu_csv_file(h100_export_path);
  ASSERT_EQ(r.kernels.size(), 4u);
  EXPECT_EQ(r.context.origin, roofkit::run_origin::imported);
  EXPECT_NE(r.context.device_name.find("H100"), std::string::npos) << r.context.device_name;
  const auto& coalesced = r.kernels[0];
  EXPECT_NE(coalesced.name.find("coalesced_kernel"), std::string::npos);
  EXPECT_EQ(coalesced.time.repetitions, 2);
  EXPECT_DOUBLE_EQ(coalesced.time.max_s, 227328e-9); // "227,328" nsecond
  EXPECT_DOUBLE_EQ(coalesced.time.min_s, 223232e-9);
  EXPECT_DOUBLE_EQ(coalesced.time.median_s, (227328e-9 + 223232e-9) / 2);
  EXPECT_DOUBLE_EQ(coalesced.bytes.at(roofkit::memory_level::dram),
                   (539151360.0 + 520268800.0) / 2);
  // 2 x 256 MiB must move; ncu ran with --cache-control none, so up to a few percent can still
  // sit in the 50 MB L2 from the previous launch.
  EXPECT_NEAR(coalesced.bytes.at(roofkit::memory_level::dram) / (2.0 * (1 << 28)), 1.0, 0.03);
  // One FADD per element (x * 2 compiles to FADD): 2^26 FP32 FLOPs.
  EXPECT_DOUBLE_EQ(coalesced.flops.at(roofkit::precision::fp32), 67108864.0);
}

TEST(ncu_import_h100, strided_kernel_moves_eight_times_the_bytes_and_is_dram_bound) {
  const roofkit::run r = roofkit::import_ncu_csv_file(h100_export_path);
  const auto& coalesced = r.kernels[0];
  const auto& strided = r.kernels[1];
  EXPECT_NE(strided.name.find("strided_kernel<32>"), std::string::npos);
  const double ratio = strided.bytes.at(roofkit::memory_level::dram) /
                       coalesced.bytes.at(roofkit::memory_level::dram);
  EXPECT_GT(ratio, 8.0);
  EXPECT_LT(ratio, 9.0);
  const auto placements = roofkit::analyze(r);
  ASSERT_EQ(placements.size(), 4u);
  EXPECT_EQ(placements[1].bound, "dram");
}

} // namespace

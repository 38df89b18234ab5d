// The ptxas verbose-log parser on real nvcc 13.0 output (tests/data/ptxas).
#include <cstdio>

#include <gtest/gtest.h>

#include "roofkit/cliff.hpp"
#include "roofkit/core.hpp"
#include "roofkit/occupancy.hpp"

namespace {

std::string log_text() {
  return roofkit::read_text_file(std::string(ROOFKIT_TEST_SOURCE_DIR) +
                                 "/tests/data/ptxas/kernels_sm80_sm90.log");
}

const roofkit::ptxas_kernel* find(const std::vector<roofkit::ptxas_kernel>& ks,
                                  const std::string& mangled, const std::string& arch) {
  for (const auto& k : ks)
    if (k.mangled_name == mangled && k.arch == arch)
      return &k;
  return nullptr;
}

TEST(ptxas, every_kernel_of_a_real_log) {
  const auto kernels = roofkit::parse_ptxas_log(log_text());
  ASSERT_EQ(kernels.size(), 16u); // 8 kernels x (sm_80, sm_90)
  const auto* wide = find(kernels, "_Z4widePKdPd", "sm_90");
  ASSERT_NE(wide, nullptr);
  EXPECT_EQ(wide->registers, 56);
  EXPECT_EQ(wide->barriers, 0);
  EXPECT_EQ(wide->static_smem, 0);
  EXPECT_EQ(wide->name, "wide(double const*, double*)");

  const auto* tile = find(kernels, "_Z9transposeILi100EEvPKfPfi", "sm_80");
  ASSERT_NE(tile, nullptr);
  EXPECT_EQ(tile->registers, 12);
  EXPECT_EQ(tile->barriers, 1);
  EXPECT_EQ(tile->static_smem, 40400);
  EXPECT_EQ(tile->name, "void transpose<100>(float const*, float*, int)");

  const auto* bars = find(kernels, "_Z14named_barriersPi", "sm_90");
  ASSERT_NE(bars, nullptr);
  EXPECT_EQ(bars->registers, 10);
  EXPECT_EQ(bars->barriers, 3);
  EXPECT_EQ(bars->static_smem, 1024);

  const auto* spill = find(kernels, "_Z8spillingPKdPd", "sm_90");
  ASSERT_NE(spill, nullptr);
  EXPECT_EQ(spill->registers, 32);
  EXPECT_EQ(spill->stack_frame, 12672);
  EXPECT_EQ(spill->spill_stores, 12672);
  EXPECT_EQ(spill->spill_loads, 26280);

  const auto* plain = find(kernels, "increment", "sm_80");
  ASSERT_NE(plain, nullptr);
  EXPECT_EQ(plain->name, "increment");
  EXPECT_EQ(plain->registers, 8);
}

TEST(ptxas, older_format_and_noise) {
  const std::string old_log =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function '_Z1kv' for 'sm_86'\r\n"
      "ptxas info    : Function properties for _Z1kv\n"
      "    8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 26 registers, 2048 bytes smem, 360 bytes cmem[0]\n"
      "some unrelated line with 99 registers\n";
  const auto ks = roofkit::parse_ptxas_log(old_log);
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(ks[0].arch, "sm_86");
  EXPECT_EQ(ks[0].registers, 26);
  EXPECT_EQ(ks[0].barriers, -1);
  EXPECT_EQ(ks[0].static_smem, 2048);
  EXPECT_EQ(ks[0].stack_frame, 8);
  EXPECT_TRUE(roofkit::parse_ptxas_log("not a log\n").empty());
}

TEST(ptxas, report_uses_each_kernels_arch_and_barriers) {
  const auto kernels = roofkit::parse_ptxas_log(log_text());
  roofkit::launch_params base;
  base.threads_per_block = 256;
  const auto sections = roofkit::ptxas_report(kernels, {}, base);
  ASSERT_EQ(sections.size(), 1u);
  const auto& t = sections[0].data;
  ASSERT_EQ(t.rows.size(), 16u);
  // named_barriers on sm_90: 3 barriers -> 64 / 3 = 21 blocks, but 256 threads allow 8.
  int checked = 0;
  for (const auto& row : t.rows) {
    if (std::get<std::string>(row[0]) == "named_barriers(int*)" &&
        std::get<std::string>(row[1]) == "sm_90") {
      EXPECT_EQ(std::get<std::int64_t>(row[4]), 3);
      EXPECT_EQ(std::get<std::int64_t>(row[6]), 8);
      ++checked;
    }
  }
  // wide() at 256 threads on sm_80: 56 registers -> 4 blocks (16 warps per partition / 2).
  for (const auto& row : t.rows) {
    if (std::get<std::string>(row[0]) == "wide(double const*, double*)" &&
        std::get<std::string>(row[1]) == "sm_80") {
      EXPECT_EQ(std::get<std::int64_t>(row[6]), 4);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 2);
  const auto cliffs = roofkit::ptxas_cliffs_report(kernels, {}, base);
  ASSERT_EQ(cliffs.size(), 1u);
  EXPECT_EQ(cliffs[0].data.id, "cliffs");
  EXPECT_EQ(cliffs[0].data.rows.size(), 16u * 3);
}

} // namespace

namespace {

// ptxas picks, for __launch_bounds__(T, B), the largest register count at which B blocks of T
// threads fit: the register budget suggest_registers() prints for that occupancy.
TEST(ptxas, launch_bounds_registers_equal_the_suggested_budget) {
  const auto kernels = roofkit::parse_ptxas_log(roofkit::read_text_file(
      std::string(ROOFKIT_TEST_SOURCE_DIR) + "/tests/data/ptxas/launch_bounds_sm80_sm90.log"));
  ASSERT_EQ(kernels.size(), 20u);
  for (const auto& k : kernels) {
    int threads = 0;
    int blocks = 0;
    ASSERT_EQ(std::sscanf(k.name.c_str(), "void bounded<%d, %d>", &threads, &blocks), 2) << k.name;
    const auto& arch = roofkit::find_arch(k.arch);
    roofkit::launch_params l;
    l.threads_per_block = threads;
    l.registers_per_thread = 255;
    const int warps = (threads + 31) / 32;
    const auto s = roofkit::suggest_registers(
        arch, l, static_cast<double>(blocks * warps) / arch.max_warps_per_sm);
    EXPECT_EQ(k.registers, s.max_registers) << k.name << " on " << k.arch;
  }
}

} // namespace

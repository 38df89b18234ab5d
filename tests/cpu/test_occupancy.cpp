// The occupancy engine, cliffs and suggestions on the cases documented in the team's occupancy
// brief (shared/reference/occupancy-brief.md): A100, H100 and Ada figures, several measured on
// an H100.
#include <gtest/gtest.h>

#include "roofkit/cliff.hpp"
#include "roofkit/core.hpp"
#include "roofkit/occupancy.hpp"

namespace {

using roofkit::compute_occupancy;
using roofkit::find_arch;
using roofkit::launch_params;
using roofkit::limiter;

launch_params launch(int threads, int regs, std::int64_t dynamic = 0, int carveout = -1) {
  launch_params l;
  l.threads_per_block = threads;
  l.registers_per_thread = regs;
  l.dynamic_smem = dynamic;
  l.carveout = carveout;
  return l;
}

TEST(occupancy, a100_register_cliffs_at_512_threads) {
  const auto& a100 = find_arch("sm_80");
  const std::pair<int, int> cases[] = {{32, 4}, {33, 3}, {40, 3}, {41, 2}, {64, 2}, {65, 1}};
  for (auto [regs, blocks] : cases) {
    const auto r = compute_occupancy(a100, launch(512, regs));
    EXPECT_EQ(r.active_blocks, blocks) << regs << " registers";
    EXPECT_DOUBLE_EQ(r.occupancy, blocks * 16 / 64.0);
  }
  const auto r = compute_occupancy(a100, launch(512, 33));
  EXPECT_EQ(r.limiters, static_cast<unsigned>(limiter::registers));
  EXPECT_EQ(r.allocated_registers_per_block, 40 * 32 * 16); // 33 rounds up to 40 per thread
  EXPECT_EQ(r.limit_warps, 4);
  EXPECT_EQ(r.active_warps, 48);
}

TEST(occupancy, a100_reserved_shared_memory_costs_a_block) {
  const auto& a100 = find_arch("8.0");
  auto r = compute_occupancy(a100, launch(128, 32, 81 * 1024));
  EXPECT_EQ(r.active_blocks, 2);
  EXPECT_EQ(r.allocated_smem_per_block, 82 * 1024);
  EXPECT_TRUE(r.optin_assumed);
  r = compute_occupancy(a100, launch(128, 32, 82 * 1024));
  EXPECT_EQ(r.active_blocks, 1);
  EXPECT_EQ(r.limiters, static_cast<unsigned>(limiter::shared_memory));
  // Even a block without shared memory is charged the reserved kilobyte.
  EXPECT_EQ(compute_occupancy(a100, launch(32, 8)).allocated_smem_per_block, 1024);
}

TEST(occupancy, h100_hardware_register_check_rounds_warps_to_sub_partitions) {
  const auto& h100 = find_arch("sm_90");
  const auto r = compute_occupancy(h100, launch(800, 80));
  EXPECT_EQ(r.active_blocks, 0);
  EXPECT_EQ(r.limit_registers, 0);
  EXPECT_EQ(r.allocated_registers_per_block, 2560 * 25); // 64000 <= 65536, still no block
  EXPECT_NE(r.reason.find("rounds the warps up to 28"), std::string::npos) << r.reason;
  EXPECT_EQ(compute_occupancy(h100, launch(800, 72)).active_blocks, 1);
}

TEST(occupancy, ada_warp_and_block_limits) {
  const auto& ada = find_arch("sm_89");
  auto r = compute_occupancy(ada, launch(640, 32));
  EXPECT_EQ(r.active_warps, 40);
  EXPECT_EQ(r.limiters, static_cast<unsigned>(limiter::warps));
  r = compute_occupancy(ada, launch(32, 32));
  EXPECT_EQ(r.active_warps, 24);
  EXPECT_EQ(r.limiters, static_cast<unsigned>(limiter::blocks));
  EXPECT_DOUBLE_EQ(r.occupancy, 0.5);
}

TEST(occupancy, h100_carveout_with_20k_dynamic) {
  const auto& h100 = find_arch("sm_90");
  const std::pair<int, int> cases[] = {{0, 1}, {10, 1}, {25, 3}, {50, 6}, {100, 10}, {-1, 10}};
  for (auto [carveout, blocks] : cases)
    EXPECT_EQ(compute_occupancy(h100, launch(128, 32, 20 * 1024, carveout)).active_blocks, blocks)
        << "carveout " << carveout;
  // 25 % of 228 KB = 57 KB, rounded up to the 64 KB configuration.
  EXPECT_EQ(compute_occupancy(h100, launch(128, 32, 20 * 1024, 25)).smem_per_sm, 64 * 1024);
  EXPECT_EQ(roofkit::carveout_smem_per_sm(h100, 25), 64 * 1024);
  EXPECT_EQ(roofkit::carveout_smem_per_sm(h100, -1), 228 * 1024);
  EXPECT_EQ(roofkit::carveout_smem_per_sm(find_arch("sm_61"), 0), 96 * 1024); // fixed
}

TEST(occupancy, barrier_limit_and_recomputed_limiter_bits) {
  const auto& h100 = find_arch("sm_90");
  launch_params l = launch(64, 16);
  l.barriers = 3;
  const auto r = compute_occupancy(h100, l);
  EXPECT_EQ(r.active_blocks, 21); // 2 x 32 / 3
  EXPECT_EQ(r.limit_barriers, 21);
  // cuda_occupancy.h would report 0x19 (warps | blocks | barriers); only barriers limit.
  EXPECT_EQ(r.limiters, static_cast<unsigned>(limiter::barriers));
  // Before Hopper there is no barrier limit.
  EXPECT_EQ(compute_occupancy(find_arch("sm_80"), l).limit_barriers, roofkit::unlimited_blocks);
  // On 12.x one barrier ties with the block slots.
  const auto blackwell = compute_occupancy(find_arch("sm_120"), launch(32, 16));
  EXPECT_EQ(blackwell.limiters,
            static_cast<unsigned>(limiter::blocks) | static_cast<unsigned>(limiter::barriers));
}

TEST(occupancy, ties_report_every_limiter) {
  // sm_90, 256 threads, 32 registers: warps (8), registers (8) tie; blocks 32, smem 228.
  const auto r = compute_occupancy(find_arch("sm_90"), launch(256, 32));
  EXPECT_EQ(r.active_blocks, 8);
  EXPECT_EQ(r.limiters,
            static_cast<unsigned>(limiter::warps) | static_cast<unsigned>(limiter::registers));
  EXPECT_EQ(roofkit::limiter_names(r.limiters), "warps, registers");
}

TEST(occupancy, zero_blocks_have_reasons) {
  const auto& h100 = find_arch("sm_90");
  auto r = compute_occupancy(h100, launch(2048, 32));
  EXPECT_EQ(r.active_blocks, 0);
  EXPECT_NE(r.reason.find("2048 threads"), std::string::npos) << r.reason;
  r = compute_occupancy(h100, launch(128, 32, 228 * 1024));
  EXPECT_EQ(r.active_blocks, 0);
  EXPECT_NE(r.reason.find("opt-in maximum of 227 KB"), std::string::npos) << r.reason;
  r = compute_occupancy(find_arch("sm_61"), launch(128, 32, 49 * 1024));
  EXPECT_EQ(r.active_blocks, 0); // no opt-in before Volta
  EXPECT_TRUE(compute_occupancy(h100, launch(256, 32)).reason.empty());
}

TEST(occupancy, validate_names_value_and_range) {
  const auto& h100 = find_arch("sm_90");
  auto message = [&](launch_params l) {
    try {
      roofkit::validate_launch(h100, l);
    } catch (const roofkit::error& e) {
      EXPECT_EQ(e.code(), roofkit::exit_code::usage);
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message(launch(0, 32)), "threads per block '0' out of range (valid: 1..1024 on sm_90)");
  EXPECT_NE(message(launch(1025, 32)).find("'1025'"), std::string::npos);
  EXPECT_EQ(message(launch(256, 256)), "registers per thread '256' out of range (valid: 0..255)");
  EXPECT_NE(message(launch(256, 32, 232449)).find("valid: 0..232448 bytes"), std::string::npos);
  EXPECT_NE(message(launch(256, 32, 0, 101)).find("carveout '101'"), std::string::npos);
  EXPECT_EQ(message(launch(256, 32, 232448)), "no error");
}

TEST(cliffs, a100_33_registers_reads_like_the_issue) {
  const auto cliffs = roofkit::find_cliffs(find_arch("sm_80"), launch(512, 33));
  ASSERT_EQ(cliffs.size(), 3u);
  const auto& regs = cliffs[0];
  EXPECT_EQ(regs.variable, roofkit::occupancy_variable::registers);
  ASSERT_TRUE(regs.below && regs.above);
  EXPECT_EQ(regs.below->value, 32);
  EXPECT_EQ(regs.below->active_blocks, 4);
  EXPECT_EQ(regs.above->value, 41);
  EXPECT_EQ(regs.above->active_blocks, 2);
  EXPECT_EQ(regs.headroom, 7);
  EXPECT_EQ(regs.text, "33 registers: 3 blocks, 75%; at 32 or fewer: 4 blocks, 100%; 7 more "
                       "registers before the next drop (at 41: 2 blocks, 50%)");
}

TEST(cliffs, shared_memory_steps_at_allocation_boundaries) {
  // A100, 128 threads, 81 KB dynamic: 2 blocks; one more byte past 81 KB costs a block.
  const auto cliffs = roofkit::find_cliffs(find_arch("sm_80"), launch(128, 32, 81 * 1024));
  const auto& smem = cliffs[1];
  EXPECT_EQ(smem.variable, roofkit::occupancy_variable::shared_memory);
  EXPECT_EQ(smem.current.active_blocks, 2);
  ASSERT_TRUE(smem.above);
  EXPECT_EQ(smem.above->value, 81 * 1024 + 1);
  EXPECT_EQ(smem.above->active_blocks, 1);
  EXPECT_EQ(smem.headroom, 0);
  ASSERT_TRUE(smem.below);
  // 3 blocks need 3 x roundup(x + 1 KB, 128) <= 167936: x <= 55936 - 1024 = 54912.
  EXPECT_EQ(smem.below->value, 54912);
  EXPECT_EQ(smem.below->active_blocks, 3);
  // Check both sides with the engine.
  EXPECT_EQ(compute_occupancy(find_arch("sm_80"), launch(128, 32, 54912)).active_blocks, 3);
  EXPECT_EQ(compute_occupancy(find_arch("sm_80"), launch(128, 32, 54913)).active_blocks, 2);
}

TEST(cliffs, block_size_and_maximum) {
  const auto cliffs = roofkit::find_cliffs(find_arch("sm_90"), launch(256, 32));
  const auto& bs = cliffs[2];
  EXPECT_EQ(bs.current.active_blocks, 8);
  ASSERT_TRUE(bs.below && bs.above);
  EXPECT_EQ(bs.below->value, 224); // 7 warps: 9 blocks
  EXPECT_EQ(bs.below->active_blocks, 9);
  EXPECT_EQ(bs.above->value, 257); // 9 warps: 7 blocks
  EXPECT_EQ(bs.headroom, 0);
  // Registers unknown: no register cliff.
  EXPECT_EQ(roofkit::find_cliffs(find_arch("sm_90"), launch(256, 0)).size(), 2u);
}

TEST(suggest, block_size_matches_the_h100_runtime) {
  const auto& h100 = find_arch("sm_90");
  const std::tuple<int, int, int> cases[] = {{72, 896, 132}, {33, 768, 264}, {24, 1024, 264}};
  for (auto [regs, block, grid] : cases) {
    const auto s = roofkit::suggest_block_size(h100, launch(256, regs));
    EXPECT_EQ(s.block_size, block) << regs;
    EXPECT_EQ(s.min_grid_size(132), grid) << regs;
  }
  // Shared memory growing with the block size: 200 B/thread.
  const auto s = roofkit::suggest_block_size(h100, launch(256, 32),
                                             [](int t) { return std::int64_t{200} * t; });
  EXPECT_EQ(s.dynamic_smem, 200 * s.block_size);
  EXPECT_GT(s.block_size, 0);
}

TEST(suggest, register_budget_follows_ptxas_launch_bounds) {
  const auto& h100 = find_arch("sm_90");
  // __launch_bounds__(T, B) gave these register counts from ptxas on H100.
  const std::tuple<int, int, int> cases[] = {
      {800, 1, 72}, {640, 2, 48}, {384, 3, 56}, {96, 16, 40}};
  for (auto [threads, blocks, regs] : cases) {
    const int warps = (threads + 31) / 32;
    const auto s = roofkit::suggest_registers(h100, launch(threads, 255),
                                              static_cast<double>(blocks * warps) / 64);
    EXPECT_EQ(s.max_registers, regs) << threads << "," << blocks;
    EXPECT_EQ(s.min_blocks_per_sm, blocks);
  }
  const auto s = roofkit::suggest_registers(h100, launch(256, 64), 1.0);
  EXPECT_EQ(s.max_registers, 32);
  EXPECT_EQ(s.launch_bounds, "__launch_bounds__(256, 8)");
  EXPECT_EQ(s.maxrregcount, "-maxrregcount=32");
  EXPECT_DOUBLE_EQ(roofkit::register_free_occupancy(h100, launch(256, 64)), 1.0);
  // 1024 threads on 8.9: 32 of 48 warps at most, so 100 % is out of reach.
  EXPECT_EQ(roofkit::suggest_registers(find_arch("sm_89"), launch(1024, 32), 1.0).max_registers, 0);
}

TEST(suggest, dynamic_smem_for_n_blocks_counts_the_reserved_kilobyte) {
  const auto& h100 = find_arch("sm_90");
  launch_params l = launch(256, 32);
  l.static_smem = 256;
  auto s = roofkit::max_dynamic_smem_for_blocks(h100, l, 2);
  EXPECT_EQ(s.runtime_reported, 116480); // what the runtime said on the H100
  EXPECT_TRUE(s.runtime_overreports);
  EXPECT_EQ(s.max_dynamic_smem, 116736 - 1024 - 256);
  l.dynamic_smem = s.max_dynamic_smem;
  EXPECT_EQ(compute_occupancy(h100, l).active_blocks, 2);
  l.dynamic_smem = s.max_dynamic_smem + 1;
  EXPECT_EQ(compute_occupancy(h100, l).active_blocks, 1);
  l.dynamic_smem = 0;
  s = roofkit::max_dynamic_smem_for_blocks(h100, l, 5);
  EXPECT_EQ(s.runtime_reported, 46336);
  EXPECT_EQ(s.max_dynamic_smem, 46592 - 1024 - 256);
  // One block: the whole opt-in maximum.
  EXPECT_EQ(roofkit::max_dynamic_smem_for_blocks(h100, l, 1).max_dynamic_smem, 232448 - 256);
  // More blocks than the warps allow.
  EXPECT_EQ(roofkit::max_dynamic_smem_for_blocks(h100, l, 9).max_dynamic_smem, -1);
  EXPECT_EQ(roofkit::blocks_without_smem_limit(h100, l), 8);
}

TEST(suggest, carveout_effects_list_each_size_once) {
  const auto effects = roofkit::carveout_effects(find_arch("sm_90"), launch(128, 32, 20 * 1024));
  ASSERT_EQ(effects.size(), 11u); // default + 10 sizes
  EXPECT_EQ(effects[0].carveout, -1);
  EXPECT_EQ(effects[0].active_blocks, 10);
  EXPECT_EQ(effects[1].carveout, 0);
  EXPECT_EQ(effects[1].preferred_smem, 0);
  EXPECT_EQ(effects[1].smem_per_sm, 32 * 1024); // raised to hold one block
  EXPECT_EQ(effects.back().carveout, 86);       // 86 % of 228 KB = 196.08 KB -> 228 KB
  EXPECT_EQ(effects.back().active_blocks, 10);
  EXPECT_EQ(roofkit::carveout_effects(find_arch("sm_61"), launch(128, 32)).size(), 1u);
}

TEST(suggest, cluster_bounds_are_floor_of_blocks_times_sms) {
  const auto bounds = roofkit::cluster_bounds(find_arch("sm_90"), 1, 132);
  ASSERT_EQ(bounds.size(), 5u);
  const int expected[] = {132, 66, 33, 16, 8};
  for (std::size_t i = 0; i < bounds.size(); ++i)
    EXPECT_EQ(bounds[i].max_active_clusters_bound, expected[i]);
  EXPECT_FALSE(bounds[4].portable);
  EXPECT_TRUE(roofkit::cluster_bounds(find_arch("sm_80"), 1, 108).empty());
}

TEST(sweep, three_graphs_cover_their_ranges) {
  const auto& h100 = find_arch("sm_90");
  const auto l = launch(256, 48, 10000);
  const auto bs = roofkit::sweep_occupancy(h100, l, roofkit::occupancy_variable::block_size);
  EXPECT_EQ(bs.points.size(), 32u);
  EXPECT_EQ(bs.current.value, 256);
  const auto regs = roofkit::sweep_occupancy(h100, l, roofkit::occupancy_variable::registers);
  EXPECT_EQ(regs.points.size(), 255u);
  EXPECT_EQ(regs.points[31].active_warps, 64); // 32 registers
  EXPECT_EQ(regs.points[32].active_warps, 48); // 33 registers
  const auto smem = roofkit::sweep_occupancy(h100, l, roofkit::occupancy_variable::shared_memory);
  EXPECT_EQ(smem.points.front().value, 0);
  EXPECT_EQ(smem.points.back().value, 232448);
  EXPECT_EQ(smem.current.value, 10000);
  for (std::size_t i = 1; i < smem.points.size(); ++i)
    EXPECT_LE(smem.points[i].active_blocks, smem.points[i - 1].active_blocks);
}

TEST(units, sizes_and_carveouts) {
  EXPECT_EQ(roofkit::parse_size("49152", "x"), 49152);
  EXPECT_EQ(roofkit::parse_size("48K", "x"), 49152);
  EXPECT_EQ(roofkit::parse_size("48kb", "x"), 49152);
  EXPECT_EQ(roofkit::parse_size("48KiB", "x"), 49152);
  EXPECT_EQ(roofkit::parse_size("1.5K", "x"), 1536);
  EXPECT_EQ(roofkit::parse_size("1M", "x"), 1048576);
  EXPECT_EQ(roofkit::parse_size("100B", "x"), 100);
  for (const char* bad : {"", "K", "-1", "12Q", "1.2.3K", "0.1"})
    EXPECT_THROW(roofkit::parse_size(bad, "--smem-dynamic"), roofkit::error) << bad;
  EXPECT_EQ(roofkit::parse_carveout("default"), -1);
  EXPECT_EQ(roofkit::parse_carveout("-1"), -1);
  EXPECT_EQ(roofkit::parse_carveout("50%"), 50);
  EXPECT_EQ(roofkit::parse_carveout("max_l1"), 0);
  EXPECT_EQ(roofkit::parse_carveout("max_shared"), 100);
  EXPECT_THROW(roofkit::parse_carveout("101"), roofkit::error);
  EXPECT_THROW(roofkit::parse_carveout("-2"), roofkit::error);
  EXPECT_EQ(roofkit::format_bytes(49152), "48 KB");
  EXPECT_EQ(roofkit::format_bytes(300), "300 B");
}

} // namespace

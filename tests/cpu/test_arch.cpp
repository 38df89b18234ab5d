// The architecture tables in data/arch: every value sourced, consistent, and as in the brief.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "roofkit/arch.hpp"
#include "roofkit/core.hpp"

namespace {

using roofkit::find_arch;

TEST(arch, every_value_has_a_source) {
  for (const auto& a : roofkit::all_archs()) {
    const auto doc =
        nlohmann::json::parse(roofkit::read_data_file("data/arch/" + a.id() + ".json"));
    ASSERT_TRUE(doc.contains("values")) << a.id();
    EXPECT_GE(doc["values"].size(), 19u) << a.id();
    for (const auto& [key, entry] : doc["values"].items()) {
      ASSERT_TRUE(entry.contains("value")) << a.id() << " " << key;
      ASSERT_TRUE(entry.contains("source")) << a.id() << " " << key;
      EXPECT_GT(entry["source"].get<std::string>().size(), 5u) << a.id() << " " << key;
    }
    EXPECT_EQ(doc["id"], a.id());
    EXPECT_EQ(a.sources.count("max_blocks_per_sm"), 1u);
  }
}

TEST(arch, table_matches_the_brief) {
  struct row {
    const char* id;
    int warps, blocks, regs_per_block, granularity;
    std::int64_t smem_kb, optin_kb, reserved, unit;
    std::size_t carveouts;
  };
  const row rows[] = {
      {"sm_50", 64, 32, 65536, 4, 64, 48, 0, 256, 0},
      {"sm_52", 64, 32, 65536, 4, 96, 48, 0, 256, 0},
      {"sm_53", 64, 32, 32768, 4, 64, 48, 0, 256, 0},
      {"sm_60", 64, 32, 65536, 2, 64, 48, 0, 256, 0},
      {"sm_61", 64, 32, 65536, 4, 96, 48, 0, 256, 0},
      {"sm_62", 64, 32, 32768, 4, 64, 48, 0, 256, 0},
      {"sm_70", 64, 32, 65536, 4, 96, 96, 0, 256, 6},
      {"sm_72", 64, 32, 65536, 4, 96, 96, 0, 256, 6},
      {"sm_75", 32, 16, 65536, 4, 64, 64, 0, 256, 2},
      {"sm_80", 64, 32, 65536, 4, 164, 163, 1024, 128, 8},
      {"sm_86", 48, 16, 65536, 4, 100, 99, 1024, 128, 6},
      {"sm_87", 48, 16, 65536, 4, 164, 163, 1024, 128, 8},
      {"sm_89", 48, 24, 65536, 4, 100, 99, 1024, 128, 6},
      {"sm_90", 64, 32, 65536, 4, 228, 227, 1024, 128, 10},
      {"sm_100", 64, 32, 65536, 4, 228, 227, 1024, 128, 10},
      {"sm_103", 64, 32, 65536, 4, 228, 227, 1024, 128, 10},
      {"sm_110", 48, 24, 65536, 4, 228, 227, 1024, 128, 10},
      {"sm_120", 48, 24, 65536, 4, 100, 99, 1024, 128, 6},
      {"sm_121", 48, 24, 65536, 4, 100, 99, 1024, 128, 6},
  };
  ASSERT_EQ(roofkit::all_archs().size(), std::size(rows));
  for (const auto& r : rows) {
    const auto& a = find_arch(r.id);
    EXPECT_EQ(a.max_warps_per_sm, r.warps) << r.id;
    EXPECT_EQ(a.max_threads_per_sm, r.warps * 32) << r.id;
    EXPECT_EQ(a.max_blocks_per_sm, r.blocks) << r.id;
    EXPECT_EQ(a.max_registers_per_block, r.regs_per_block) << r.id;
    EXPECT_EQ(a.registers_per_sm, 65536) << r.id;
    EXPECT_EQ(a.max_registers_per_thread, 255) << r.id;
    EXPECT_EQ(a.register_allocation_unit, 256) << r.id;
    EXPECT_EQ(a.warp_allocation_granularity, r.granularity) << r.id;
    EXPECT_EQ(a.shared_memory_per_sm, r.smem_kb * 1024) << r.id;
    EXPECT_EQ(a.shared_memory_per_block, 48 * 1024) << r.id;
    EXPECT_EQ(a.shared_memory_per_block_optin, r.optin_kb * 1024) << r.id;
    EXPECT_EQ(a.reserved_shared_memory_per_block, r.reserved) << r.id;
    EXPECT_EQ(a.shared_memory_allocation_unit, r.unit) << r.id;
    EXPECT_EQ(a.shared_memory_carveouts.size(), r.carveouts) << r.id;
    EXPECT_EQ(a.max_threads_per_block, 1024) << r.id;
  }
  // Measured on the H100 (cudaGetDeviceProperties).
  const auto& h100 = find_arch("sm_90");
  EXPECT_EQ(h100.shared_memory_per_sm, 233472);
  EXPECT_EQ(h100.shared_memory_per_block_optin, 232448);
  EXPECT_EQ(h100.block_barriers_per_sm, 64);
  EXPECT_EQ(h100.max_cluster_size, 8);
  EXPECT_EQ(h100.max_cluster_size_nonportable, 16);
  EXPECT_EQ(find_arch("sm_120").block_barriers_per_sm, 24);
  EXPECT_EQ(find_arch("sm_80").block_barriers_per_sm, 0);
  EXPECT_EQ(find_arch("sm_60").register_compat_granularity, 4);
  EXPECT_EQ(find_arch("sm_75").shared_memory_carveouts, (std::vector<std::int64_t>{32768, 65536}));
}

TEST(arch, names_in_every_spelling) {
  EXPECT_EQ(find_arch("sm_90").id(), "sm_90");
  EXPECT_EQ(find_arch("9.0").id(), "sm_90");
  EXPECT_EQ(find_arch("90").id(), "sm_90");
  EXPECT_EQ(find_arch("sm_90a").id(), "sm_90");
  EXPECT_EQ(find_arch("SM_121").cc(), "12.1");
  EXPECT_EQ(find_arch("compute_100f").id(), "sm_100");
  EXPECT_EQ(find_arch("10.3").family, "Blackwell");
  EXPECT_EQ(find_arch(8, 6)->id(), "sm_86");
  EXPECT_EQ(find_arch(3, 5), nullptr);
  for (const char* bad : {"sm_99", "sm_35", "9", "abc", "", "9.x", "sm_1000"}) {
    try {
      find_arch(bad);
      ADD_FAILURE() << bad;
    } catch (const roofkit::error& e) {
      EXPECT_EQ(e.code(), roofkit::exit_code::usage);
      EXPECT_NE(std::string(e.what()).find("valid: sm_50, sm_52"), std::string::npos) << e.what();
    }
  }
}

TEST(arch, inconsistent_tables_are_rejected) {
  auto doc = nlohmann::json::parse(roofkit::read_data_file("data/arch/sm_90.json"));
  EXPECT_EQ(roofkit::parse_arch_json(doc.dump(), "x").max_blocks_per_sm, 32);
  auto bad = doc;
  bad["values"]["max_threads_per_sm"]["value"] = 1000;
  EXPECT_THROW(roofkit::parse_arch_json(bad.dump(), "x"), roofkit::error);
  bad = doc;
  bad["values"].erase("max_blocks_per_sm");
  EXPECT_THROW(roofkit::parse_arch_json(bad.dump(), "x"), roofkit::error);
  bad = doc;
  bad["values"]["warp_size"].erase("source");
  EXPECT_THROW(roofkit::parse_arch_json(bad.dump(), "x"), roofkit::error);
  EXPECT_THROW(roofkit::parse_arch_json("{", "x"), roofkit::error);
}

} // namespace

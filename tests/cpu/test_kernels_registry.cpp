// The kernel registry: every kernel present once, consistent fields, the FLOP and byte formulas
// and launches at hand-computed sizes, the claims, and the list table.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "roofkit/core.hpp"
#include "roofkit/registry.hpp"
#include "test_support.hpp"

namespace {

using roofkit::find_kernel;
using roofkit::kernel_descriptor;
using roofkit::precision;

const kernel_descriptor& registered_kernel(const std::string& name) {
  const auto* d = find_kernel(name);
  if (d == nullptr)
    throw std::runtime_error("no kernel " + name);
  return *d;
}

TEST(kernel_registry, is_consistent) {
  const auto problems = roofkit::registry_problems();
  for (const auto& p : problems)
    ADD_FAILURE() << p;
  EXPECT_TRUE(problems.empty());
}

TEST(kernel_registry, holds_every_kernel_of_the_suite_once) {
  std::vector<std::string> expected = {"global/coalesced",
                                       "global/matrix-row-major",
                                       "global/matrix-column-major",
                                       "vector/copy-scalar",
                                       "vector/copy-int2",
                                       "vector/copy-int4",
                                       "vector/float3",
                                       "vector/float4",
                                       "layout/aos-one-field",
                                       "layout/soa-one-field",
                                       "layout/aos-all-fields",
                                       "layout/soa-all-fields",
                                       "vadd/plain",
                                       "vadd/grid-stride",
                                       "gemm/naive",
                                       "gemm/tiled-16",
                                       "gemm/tiled-32",
                                       "transpose/copy",
                                       "transpose/naive",
                                       "transpose/shared",
                                       "transpose/padded",
                                       "stencil/naive",
                                       "stencil/shared",
                                       "divergence/warp-uniform",
                                       "divergence/split-24",
                                       "divergence/split-16",
                                       "divergence/split-8",
                                       "divergence/split-1",
                                       "divergence/boundary-100",
                                       "divergence/boundary-1000",
                                       "divergence/boundary-10000",
                                       "registers/31-regs",
                                       "registers/two-more-vars",
                                       "registers/maxnreg-32",
                                       "registers/maxnreg-33",
                                       "registers/spill",
                                       "unified/device",
                                       "unified/host-init",
                                       "unified/gpu-init",
                                       "unified/prefetch",
                                       "readonly/plain",
                                       "readonly/restrict",
                                       "readonly/ldg",
                                       "cliff/triad",
                                       "cliff/chase",
                                       "cliff/fma",
                                       "cliff/fold-cap"};
  for (int s : {1, 2, 4, 8, 16, 32})
    expected.push_back("global/stride-" + std::to_string(s));
  for (int o : {0, 1, 2, 4, 8, 16, 32})
    expected.push_back("global/offset-" + std::to_string(o));
  for (const char* m : {"atomic", "shared-tree", "warp-shuffle", "two-pass"}) {
    expected.push_back(std::string("reduce/") + m);
    expected.push_back(std::string("reduce/dot-") + m);
  }
  for (int w : {1, 2, 4, 8, 16, 32})
    expected.push_back("smem/bank-conflict-" + std::to_string(w));
  for (const char* dir : {"h2d", "d2h"})
    for (const char* mem : {"pageable", "pinned"})
      for (const char* size : {"64KiB", "1MiB", "16MiB", "256MiB"})
        expected.push_back(std::string("transfer/") + dir + "-" + mem + "-" + size);

  const auto& all = roofkit::kernel_registry();
  EXPECT_EQ(all.size(), expected.size());
  for (const auto& name : expected)
    EXPECT_NE(find_kernel(name), nullptr) << name;
  std::set<std::string> names;
  for (const auto& d : all)
    EXPECT_TRUE(names.insert(d.name).second) << "duplicate " << d.name;
}

TEST(kernel_registry, every_kernel_has_a_topic_a_claim_and_a_seed) {
  const std::set<std::string> topics = {
      "global", "vector",     "layout",    "vadd",    "gemm",     "transpose", "reduce", "stencil",
      "smem",   "divergence", "registers", "unified", "transfer", "readonly",  "cliff"};
  const std::string seeds[] = {"global-memory-coalescing.txt", "vectorized-memory-access.txt",
                               "memory-model-global-to-shared.txt", "cuda-memory-management.txt",
                               "cuda-notes-warps-occupancy-roofline-gemm.txt"};
  for (const auto& d : roofkit::kernel_registry()) {
    EXPECT_TRUE(topics.count(d.topic)) << d.name;
    EXPECT_EQ(d.name.substr(0, d.topic.size() + 1), d.topic + "/");
    EXPECT_FALSE(d.claim.empty()) << d.name;
    // Cliff-sweep kernels state the seeds' performance-cliff sentence, which `cliff` measures
    // (not a bench claim); every other kernel illustrates a registered claim.
    if (d.topic != "cliff" || !d.claim_id.empty()) {
      ASSERT_NE(roofkit::find_claim(d.claim_id), nullptr) << d.name;
      EXPECT_EQ(d.claim, roofkit::find_claim(d.claim_id)->text);
    }
    EXPECT_TRUE(std::find(std::begin(seeds), std::end(seeds), d.seed_file) != std::end(seeds))
        << d.name << ": " << d.seed_file;
    EXPECT_GE(d.default_size, d.min_size);
    EXPECT_FALSE(d.test_sizes.empty());
  }
}

TEST(kernel_registry, keeps_topics_together_in_display_order) {
  const auto& all = roofkit::kernel_registry();
  EXPECT_EQ(all.front().name, "global/coalesced");
  std::set<std::string> closed;
  std::string current;
  for (const auto& d : all) {
    if (d.topic != current) {
      EXPECT_FALSE(closed.count(d.topic)) << d.topic << " appears twice";
      closed.insert(current);
      current = d.topic;
    }
  }
}

TEST(kernel_registry, bandwidth_kernels_default_past_a_50_mb_l2) {
  for (const auto& d : roofkit::kernel_registry()) {
    if (d.topic == "transfer" || d.topic == "divergence" || d.topic == "smem" ||
        d.topic == "gemm" || d.topic == "registers")
      continue;
    EXPECT_GT(d.minimal_bytes(d.default_size), 50e6) << d.name;
  }
}

TEST(kernel_registry, measurement_flags_follow_what_a_run_measures) {
  for (const auto& d : roofkit::kernel_registry()) {
    if (d.topic == "transfer") {
      EXPECT_EQ(d.kind, roofkit::measurement::transfer) << d.name;
      EXPECT_FALSE(d.counter_profiled) << d.name;
      EXPECT_EQ(d.launch(d.default_size).grid[0], 0u) << d.name;
    }
  }
  for (const char* name : {"unified/host-init", "unified/prefetch"}) {
    EXPECT_EQ(registered_kernel(name).kind, roofkit::measurement::managed_memory);
    EXPECT_TRUE(registered_kernel(name).reset_before_each_run);
    // Profiled with the pages moved back before every replay pass.
    EXPECT_TRUE(registered_kernel(name).counter_profiled);
  }
  EXPECT_EQ(registered_kernel("unified/gpu-init").kind, roofkit::measurement::kernel);
  EXPECT_FALSE(registered_kernel("unified/gpu-init").reset_before_each_run);
  EXPECT_EQ(registered_kernel("reduce/two-pass").kernels_per_run, 2);
  EXPECT_EQ(registered_kernel("reduce/dot-two-pass").kernels_per_run, 2);
  EXPECT_EQ(registered_kernel("reduce/shared-tree").kernels_per_run, 1);
  EXPECT_EQ(roofkit::to_string(roofkit::measurement::managed_memory), "managed_memory");
}

struct formula_case {
  const char* name;
  roofkit::problem_size size;
  double flops;
  double bytes;
};

TEST(kernel_registry, flop_and_byte_formulas_match_hand_counts) {
  const formula_case cases[] = {
      {"global/coalesced", 1000, 1000, 8000},
      {"global/stride-32", 67108864, 67108864, 536870912},
      {"global/offset-1", 10, 10, 80},
      {"global/matrix-column-major", 4, 32, 128}, // 2 N^2, 8 N^2
      {"vector/copy-int4", 10, 0, 80},
      {"vector/float3", 10, 30, 240}, // 3 flops, 24 bytes per float3
      {"vector/float4", 10, 40, 320},
      {"layout/aos-one-field", 10, 10, 80},
      {"layout/soa-all-fields", 10, 50, 160}, // 3 mul + 2 add; 12 B in, 4 B out
      {"vadd/plain", 10, 10, 120},
      {"vadd/grid-stride", 1000, 1000, 12000},
      {"gemm/naive", 100, 2e6, 120000}, // 2 N^3, 3 matrices of N^2 floats
      {"gemm/tiled-32", 2048, 2.0 * 2048 * 2048 * 2048, 12.0 * 2048 * 2048},
      {"transpose/padded", 3, 0, 72},
      {"reduce/atomic", 1000, 1000, 4000},
      {"reduce/dot-warp-shuffle", 1000, 2000, 8000},
      {"stencil/naive", 10, 24, 72}, // 3 (N - 2); 4 N + 4 (N - 2)
      {"smem/bank-conflict-8", 1000, 256000, 8000},
      {"divergence/split-16", 1000, 2048000, 8000}, // 1024 iterations x 2 flops
      {"divergence/boundary-100", 100, 100, 1200},
      {"registers/31-regs", 1000, 44 * 1000 + 22 * 512, 4 * 1000 + 4 * 512},
      {"registers/maxnreg-33", 1 << 24, 52.0 * (1 << 24) + 26.0 * (1 << 21),
       4.0 * (1 << 24) + 4.0 * (1 << 21)},
      {"unified/prefetch", 10, 10, 120},
      {"transfer/h2d-pinned-1MiB", 1 << 20, 0, 1 << 20},
      {"transfer/d2h-pageable-64KiB", 1001, 0, 1000}, // rounded down to whole floats
      {"readonly/ldg", 100, 1600, 860},               // 8 taps x 2 flops; 8 N + 60
  };
  for (const auto& c : cases) {
    const auto& d = registered_kernel(c.name);
    EXPECT_DOUBLE_EQ(d.total_flops(c.size), c.flops) << c.name;
    EXPECT_DOUBLE_EQ(d.minimal_bytes(c.size), c.bytes) << c.name;
    const auto f = d.flops(c.size);
    if (c.flops > 0) {
      ASSERT_EQ(f.size(), 1u) << c.name;
      EXPECT_EQ(f.begin()->first, precision::fp32) << c.name;
    }
  }
}

TEST(kernel_registry, launches_match_the_seeds_and_cover_any_size) {
  const auto coalesced = registered_kernel("global/coalesced").launch(1 << 26);
  EXPECT_EQ(coalesced.grid[0], 262144u); // the article's 262144 blocks of 256
  EXPECT_EQ(coalesced.block[0], 256u);
  const auto strided = registered_kernel("global/stride-32").launch(1 << 26);
  EXPECT_EQ(strided.grid[0], 262144u);
  const auto matrix = registered_kernel("global/matrix-row-major").launch(16384);
  EXPECT_EQ(matrix.grid, (std::array<std::uint32_t, 3>{512, 512, 1}));
  EXPECT_EQ(matrix.block, (std::array<std::uint32_t, 3>{32, 32, 1}));
  EXPECT_EQ(registered_kernel("vector/copy-int4").launch(1 << 26).grid[0], 8192u); // MAX_BLOCKS
  EXPECT_EQ(registered_kernel("vector/copy-int4").launch(1000).grid[0], 1u); // 250 int4 -> 1 block
  EXPECT_EQ(registered_kernel("vector/copy-int2").launch(3).grid[0], 1u);    // never zero blocks
  const auto tiled = registered_kernel("gemm/tiled-32").launch(100);
  EXPECT_EQ(tiled.grid, (std::array<std::uint32_t, 3>{4, 4, 1}));
  EXPECT_EQ(tiled.block, (std::array<std::uint32_t, 3>{32, 32, 1}));
  EXPECT_EQ(registered_kernel("gemm/tiled-16").launch(100).grid[0], 7u);
  const auto transpose = registered_kernel("transpose/shared").launch(100);
  EXPECT_EQ(transpose.grid, (std::array<std::uint32_t, 3>{4, 4, 1}));
  EXPECT_EQ(transpose.block, (std::array<std::uint32_t, 3>{32, 8, 1}));
  EXPECT_EQ(registered_kernel("reduce/two-pass").launch(1 << 26).grid[0], 1024u);
  EXPECT_EQ(registered_kernel("reduce/shared-tree").launch(1 << 26).grid[0], 262144u);
  EXPECT_EQ(registered_kernel("stencil/shared").launch(258).grid[0], 1u); // 256 outputs
  EXPECT_EQ(registered_kernel("stencil/shared").launch(259).grid[0], 2u);
  const auto regs = registered_kernel("registers/maxnreg-33").launch(1 << 26);
  EXPECT_EQ(regs.grid[0], 16384u); // 8 elements per thread, 512 threads per block
  EXPECT_EQ(regs.block[0], 512u);
  EXPECT_EQ(registered_kernel("divergence/boundary-100").launch(100).grid[0],
            2u); // 4 warps of 64-blocks
  EXPECT_EQ(registered_kernel("divergence/boundary-10000").launch(10000).grid[0], 157u);
  EXPECT_EQ(registered_kernel("vadd/grid-stride").launch(1 << 26).grid[0], 2048u);
}

TEST(kernel_registry, validates_sizes_with_a_usage_error) {
  const auto& d = registered_kernel("stencil/naive");
  EXPECT_NO_THROW(d.validate_size(3));
  try {
    d.validate_size(2);
    FAIL() << "size 2 accepted";
  } catch (const roofkit::error& e) {
    EXPECT_EQ(e.code(), roofkit::exit_code::usage);
    EXPECT_NE(std::string(e.what()).find("'2'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("stencil/naive"), std::string::npos);
  }
  EXPECT_THROW(registered_kernel("gemm/naive").validate_size(46341), roofkit::error);
  EXPECT_THROW(registered_kernel("transfer/h2d-pinned-1MiB").validate_size(0), roofkit::error);
}

TEST(kernel_registry, selects_kernels_by_regex) {
  EXPECT_EQ(roofkit::select_kernels("^gemm/").size(), 3u);
  EXPECT_EQ(roofkit::select_kernels("").size(), roofkit::kernel_registry().size());
  EXPECT_EQ(roofkit::select_kernels("stride-(1|32)$").size(), 2u);
  EXPECT_EQ(roofkit::select_kernels("tiled").size(), 2u); // search, not full match
  for (const char* bad : {"(", "nothing-like-this"}) {
    try {
      roofkit::select_kernels(bad);
      FAIL() << bad;
    } catch (const roofkit::error& e) {
      EXPECT_EQ(e.code(), roofkit::exit_code::usage);
      EXPECT_NE(std::string(e.what()).find(std::string("'") + bad + "'"), std::string::npos);
    }
  }
}

TEST(seed_claims, are_complete_and_measurable) {
  const auto& claims = roofkit::seed_claims();
  EXPECT_GE(claims.size(), 40u);
  std::set<std::string> used;
  for (const auto& d : roofkit::kernel_registry())
    used.insert(d.claim_id);
  for (const auto& c : claims) {
    EXPECT_FALSE(c.text.empty());
    EXPECT_NE(find_kernel(c.subject), nullptr) << c.id;
    if (!c.baseline.empty()) {
      EXPECT_NE(find_kernel(c.baseline), nullptr) << c.id;
    }
    if (c.seed_value) {
      EXPECT_TRUE(std::isfinite(*c.seed_value)) << c.id;
    }
  }
  // The headline claims, with the seeds' figures.
  EXPECT_DOUBLE_EQ(*roofkit::find_claim("stride-32-bandwidth")->seed_value, 0.03);
  EXPECT_DOUBLE_EQ(*roofkit::find_claim("dot-shared-vs-atomic")->seed_value, 24.6);
  EXPECT_DOUBLE_EQ(*roofkit::find_claim("smoothing-shared")->seed_value, 2.3);
  EXPECT_DOUBLE_EQ(*roofkit::find_claim("transpose-padding")->seed_value, 1.6);
  EXPECT_DOUBLE_EQ(*roofkit::find_claim("register-cliff")->seed_value, 0.75);
  EXPECT_EQ(roofkit::find_claim("register-cliff")->metric, roofkit::claim_metric::occupancy);
  EXPECT_EQ(roofkit::find_claim("um-prefetch")->baseline, "unified/device");
  EXPECT_FALSE(roofkit::find_claim("vector-int4-faster")->seed_value.has_value());
  EXPECT_EQ(roofkit::to_string(roofkit::claim_metric::counter_quotient), "counter_quotient");
}

TEST(seed_claims, are_all_listed_in_the_claims_source_document) {
  const std::string doc = test_support::read_source("docs/seed-claims-source.md");
  ASSERT_FALSE(doc.empty());
  for (const auto& c : roofkit::seed_claims())
    EXPECT_NE(doc.find("`" + c.id + "`"), std::string::npos) << c.id;
}

TEST(kernel_registry, every_kernel_is_documented) {
  const std::string doc = test_support::read_source("docs/kernels.md");
  ASSERT_FALSE(doc.empty());
  for (const auto& d : roofkit::kernel_registry())
    EXPECT_NE(doc.find("`" + d.name + "`"), std::string::npos) << d.name;
}

TEST(kernel_list_table, has_one_row_per_kernel_with_values_at_the_default_size) {
  const auto kernels = roofkit::select_kernels("^gemm/naive$|^vadd/plain$");
  const auto t = roofkit::kernel_list_table(kernels);
  ASSERT_EQ(t.rows.size(), 2u);
  std::map<std::string, std::size_t> col;
  for (std::size_t i = 0; i < t.columns.size(); ++i)
    col[t.columns[i].key] = i;
  for (const char* key : {"name", "topic", "size", "flops", "bytes", "intensity", "claim"})
    EXPECT_TRUE(col.count(key)) << key;
  const auto& vadd =
      t.rows[0][0] == roofkit::cell(std::string("vadd/plain")) ? t.rows[0] : t.rows[1];
  EXPECT_EQ(std::get<std::int64_t>(vadd[col["size"]]), std::int64_t{1} << 26);
  EXPECT_DOUBLE_EQ(std::get<double>(vadd[col["bytes"]]), 12.0 * (1 << 26));
  EXPECT_NEAR(std::get<double>(vadd[col["intensity"]]), 1.0 / 12, 1e-12);
  EXPECT_EQ(std::get<std::string>(vadd[col["launch"]]), "(262144,1,1) x (256,1,1)");
}

} // namespace

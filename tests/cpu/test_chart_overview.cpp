// The overview chart of a large run (colour per topic, labels for the points that matter), every
// precision's roof with each kernel against its own, roofs labelled with their clock, kernels
// dominated by launch overhead, and the bandwidth view of the kernels without FLOPs.
#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "roofkit/core.hpp"
#include "roofkit/plot.hpp"
#include "roofkit/results.hpp"
#include "test_chart_runs.hpp"
#include "test_chart_xml.hpp"

namespace {

using chart_test::parse_xml;
using chart_test::xml_element;
using namespace roofkit;

using chart_test::all_text;

// 3 topics x 10 kernels (time grows with the index), one kernel far below its roof, and one
// kernel without FLOPs per topic.
run topic_run() {
  run r = chart_test::h100_run();
  const char* topics[] = {"global", "smem", "reduce"};
  for (int t = 0; t < 3; ++t)
    for (int i = 0; i < 10; ++i) {
      const double bytes = 1e9;
      const double flops = 0.25 * bytes * (1 + 0.1 * i);
      // ~80% of the DRAM roof (3024 GB/s measured): time = bytes / (0.8 * 3024e9).
      double time = bytes / (0.8 * 3024e9) * (1 + 0.01 * (t * 10 + i));
      auto k = chart_test::kernel(fmt::format("{}/k{:02d}", topics[t], i), precision::fp32, flops,
                                  bytes, time);
      k.topic = topics[t];
      r.kernels.push_back(k);
    }
  // Far below its roof: 100x slower than the DRAM roof allows.
  auto slow =
      chart_test::kernel("smem/very_slow", precision::fp32, 0.25e9, 1e9, 1e9 / 3024e9 * 100);
  slow.topic = "smem";
  r.kernels.push_back(slow);
  // The longest-running kernel.
  auto longest = chart_test::kernel("reduce/longest", precision::fp32, 0.25e11, 1e11, 0.05);
  longest.topic = "reduce";
  r.kernels.push_back(longest);
  for (const char* t : topics) {
    auto copy = chart_test::kernel(fmt::format("{}/copy", t), precision::fp32, 0, 2e9, 1e-3);
    copy.flops.clear();
    copy.topic = t;
    r.kernels.push_back(copy);
  }
  // A host transfer: no FLOPs and no bytes at any device memory level.
  auto transfer = chart_test::kernel("transfer/h2d", precision::fp32, 0, 0, 1e-3);
  transfer.flops.clear();
  transfer.bytes.clear();
  transfer.topic = "transfer";
  r.kernels.push_back(transfer);
  return r;
}

TEST(chart_overview, many_kernels_are_coloured_by_topic_with_a_topic_legend) {
  const run r = topic_run();
  const auto d = make_roofline_data(r);
  ASSERT_EQ(d.kernels.size(), 32u);
  EXPECT_TRUE(d.by_topic);
  ASSERT_EQ(d.topics.size(), 3u);
  EXPECT_EQ(d.topics[0].name, "global");
  EXPECT_EQ(d.topics[1].plotted, 11u);
  EXPECT_EQ(d.topics[2].data_only, 1u);
  for (const auto& k : d.kernels) {
    const auto& t = *std::find_if(d.topics.begin(), d.topics.end(),
                                  [&](const chart_topic& x) { return x.name == k.topic; });
    EXPECT_EQ(k.color, t.color) << k.name;
  }
  EXPECT_NE(d.topics[0].color, d.topics[1].color);

  const auto root = parse_xml(render_roofline_svg(r));
  const std::string text = all_text(*root);
  // The legend lists topics, not kernels.
  EXPECT_NE(text.find("Topics"), std::string::npos);
  EXPECT_NE(text.find("smem (11)"), std::string::npos) << text;
  EXPECT_EQ(text.find("Kernels "), std::string::npos);
  const auto legend_topics =
      root->find_all([](const xml_element& e) { return e.has_class("legend-topic"); });
  EXPECT_EQ(legend_topics.size(), 3u);
  EXPECT_TRUE(
      root->find_all([](const xml_element& e) { return e.has_class("legend-kernel"); }).empty());
  // Kernels without FLOPs: one line, not a list.
  EXPECT_NE(text.find("4 kernels move data only (no FLOPs): see the bandwidth view."),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("global/copy"), std::string::npos);
  EXPECT_EQ(text.find("transfer/h2d"), std::string::npos);
  EXPECT_EQ(text.find("Not plotted"), std::string::npos);
  EXPECT_EQ(d.no_flops, 4u);
  // Each kernel group names its topic.
  for (const auto* g : root->find_all([](const xml_element& e) { return e.has_class("kernel"); }))
    EXPECT_EQ(g->attr("data-name").substr(0, g->attr("data-topic").size()), g->attr("data-topic"));
}

TEST(chart_overview, labels_go_to_the_points_that_matter) {
  const run r = topic_run();
  const auto d = make_roofline_data(r);
  std::set<std::string> labelled;
  for (const auto& k : d.kernels)
    if (k.labelled)
      labelled.insert(k.name);
  EXPECT_LE(labelled.size(), 10u);
  EXPECT_GE(labelled.size(), 5u);
  EXPECT_TRUE(labelled.count("reduce/longest")) << "the top time consumer";
  EXPECT_TRUE(labelled.count("smem/very_slow")) << "the furthest below its roof";
  const auto root = parse_xml(render_roofline_svg(r));
  const auto label_groups =
      root->find_all([](const xml_element& e) { return e.has_class("kernel-label"); });
  EXPECT_EQ(label_groups.size(), labelled.size());

  // An explicit pattern labels exactly its matches.
  chart_options o;
  o.label_regex = "^global/k0[0-2]$";
  const auto d2 = make_roofline_data(r, o);
  std::size_t n = 0;
  for (const auto& k : d2.kernels) {
    EXPECT_EQ(k.labelled, k.name.rfind("global/k0", 0) == 0 && k.name.back() <= '2') << k.name;
    n += k.labelled ? 1 : 0;
  }
  EXPECT_EQ(n, 3u);
  o.label_regex = "([";
  try {
    make_roofline_data(r, o);
    ADD_FAILURE() << "a bad pattern must be refused";
  } catch (const roofkit::error& e) {
    EXPECT_EQ(e.code(), exit_code::usage);
    EXPECT_NE(std::string(e.what()).find("'(['"), std::string::npos) << e.what();
  }
}

TEST(chart_overview, a_small_run_keeps_a_colour_and_a_label_per_kernel) {
  const auto d = make_roofline_data(chart_test::mixed_run());
  EXPECT_FALSE(d.by_topic);
  std::set<std::string> colours;
  for (const auto& k : d.kernels) {
    EXPECT_TRUE(k.labelled);
    colours.insert(k.color);
  }
  EXPECT_EQ(colours.size(), d.kernels.size());
  chart_options o;
  o.colouring = chart_colouring::topic;
  EXPECT_TRUE(make_roofline_data(chart_test::mixed_run(), o).by_topic);
}

TEST(chart_overview, every_precision_used_has_its_roof_and_each_kernel_its_own) {
  run r = chart_test::h100_run();
  // Compute-bound kernels in three precisions, each at half of its own roof.
  const double bytes = 1e6;
  r.kernels.push_back(chart_test::kernel("dgemm", precision::fp64, 33.5e12, bytes, 2.0));
  r.kernels.push_back(chart_test::kernel("sgemm", precision::fp32, 66.9e12, bytes, 2.0));
  r.kernels.push_back(chart_test::kernel("hgemm_tc", precision::tensor_fp16, 989.4e12, bytes, 2.0));
  const auto d = make_roofline_data(r);
  std::set<precision> roofs;
  for (const auto& roof : d.roofs)
    if (!roof.is_memory)
      for (precision p : roof.precisions)
        roofs.insert(p);
  EXPECT_EQ(roofs, (std::set<precision>{precision::fp64, precision::fp32, precision::tensor_fp16}));
  ASSERT_EQ(d.kernels.size(), 3u);
  EXPECT_EQ(d.kernels[0].compute_roof, "FP64 33.5 TFLOP/s");
  EXPECT_EQ(d.kernels[1].compute_roof, "FP32 66.9 TFLOP/s");
  EXPECT_EQ(d.kernels[2].compute_roof, "Tensor FP16/BF16 989 TFLOP/s");
  for (const auto& k : d.kernels) {
    EXPECT_NEAR(k.pct_of_roof, 50, 0.01) << k.name;
    EXPECT_NE(k.bound.find("FP"), std::string::npos) << k.name << " " << k.bound;
    for (const auto& p : k.points) {
      EXPECT_NEAR(p.pct_of_roof, 50, 0.01) << k.name;
      EXPECT_NE(p.tip.find("compute roof: " + k.compute_roof), std::string::npos) << p.tip;
    }
  }
}

TEST(chart_overview, roofs_carry_their_source_and_clock) {
  const auto root = parse_xml(render_roofline_svg(chart_test::mixed_run()));
  const std::string text = all_text(*root);
  // DRAM at the memory clock, the others at the SM clock; the theoretical value beside a
  // measured one names its own clock.
  EXPECT_NE(text.find("DRAM 3.02 TB/s @ 2619 MHz"), std::string::npos) << text;
  EXPECT_NE(text.find("FP32 66.9 TFLOP/s @ 1980 MHz"), std::string::npos) << text;
  EXPECT_NE(text.find("L2 4.86 TB/s @ 1980 MHz"), std::string::npos) << text;
  for (const auto* l : root->find_all([](const xml_element& e) { return e.has_class("roof"); })) {
    if (l->has_class("reference"))
      continue;
    EXPECT_EQ(l->attr("stroke-dasharray"), l->attr("data-source") == "measured" ? "" : "7 4");
  }
}

TEST(chart_overview, launch_overhead_is_marked_in_chart_tip_and_table) {
  run r = chart_test::mixed_run();
  r.kernels[1].overhead_dominated = true; // uncoalesced_access
  const auto root = parse_xml(render_roofline_svg(r));
  const auto rings =
      root->find_all([](const xml_element& e) { return e.has_class("overhead-ring"); });
  EXPECT_EQ(rings.size(), 1u); // one level (DRAM) for this kernel
  const auto marked = root->find_all(
      [](const xml_element& e) { return e.has_class("kernel") && e.has_class("overhead"); });
  ASSERT_EQ(marked.size(), 1u);
  EXPECT_EQ(marked[0]->attr("data-name"), "uncoalesced_access");
  EXPECT_NE(all_text(*root).find("ring: launch overhead"), std::string::npos);
  const auto points =
      marked[0]->find_all([](const xml_element& e) { return e.has_class("point"); });
  ASSERT_FALSE(points.empty());
  EXPECT_NE(points[0]->attr("data-tip").find("launch overhead dominates"), std::string::npos);
  const std::string page = render_roofline_html(r);
  EXPECT_NE(page.find("launch overhead dominates: rates are bounds</td>"), std::string::npos);
}

TEST(chart_overview, point_hover_text_has_every_number) {
  const run r = chart_test::mixed_run();
  const auto d = make_roofline_data(r);
  const auto& k = d.kernels[2]; // sgemm_8192: 1.1e12 FLOPs, 805 MB DRAM, 21.4 ms
  ASSERT_EQ(k.name, "sgemm_8192");
  const std::string& tip = k.points.front().tip;
  for (const char* part :
       {"sgemm_8192\n", "topic: other\n", "level: DRAM\n", "intensity: 1365 FLOP/B\n",
        "achieved: 51.3 TFLOP/s", "% of roof: 77% of the 66.9 TFLOP/s this level allows",
        "bound: FP32 (77% of its roof)", "occupancy: not recorded"})
    EXPECT_NE(tip.find(part), std::string::npos) << part << "\n" << tip;
}

TEST(chart_overview, bandwidth_view_puts_each_copy_against_each_level_roof) {
  run r = topic_run();
  auto& reduce_copy = r.kernels[r.kernels.size() - 2];
  ASSERT_EQ(reduce_copy.name, "reduce/copy");
  reduce_copy.bytes[memory_level::l2] = 3e9;
  reduce_copy.overhead_dominated = true;
  const auto d = make_roofline_data(r);
  ASSERT_EQ(d.data_only.size(), 3u);
  const auto root = parse_xml(render_bandwidth_svg(r));
  const auto bars = root->find_all([](const xml_element& e) { return e.has_class("bar"); });
  ASSERT_EQ(bars.size(), 4u); // 3 DRAM bars + 1 L2 bar
  // The bar's length is its achieved bandwidth on the panel's linear scale, whose end is where
  // the roof line's x is: (roof x - panel x) / roof = (bar width) / achieved.
  const auto roofs = root->find_all(
      [](const xml_element& e) { return e.has_class("roof") && !e.has_class("reference"); });
  for (const auto* b : bars) {
    const double achieved = std::stod(b->attr("data-achieved"));
    const double roof = std::stod(b->attr("data-roof"));
    if (b->attr("data-level") == "dram") {
      EXPECT_NEAR(achieved, 2e9 / 1e-3, 1e3);
      EXPECT_NEAR(roof, 3024e9, 1);
    } else {
      EXPECT_NEAR(achieved, 3e9 / 1e-3, 1e3);
      EXPECT_NEAR(roof, 4.86e12, 1);
    }
    const xml_element* line = nullptr;
    for (const auto* l : roofs)
      if (l->attr("data-level") == b->attr("data-level"))
        line = l;
    ASSERT_NE(line, nullptr);
    const double x0 = std::stod(b->attr("x"));
    const double roof_px = std::stod(line->attr("x1")) - x0;
    EXPECT_NEAR(std::stod(b->attr("width")) / roof_px, achieved / roof, 0.01);
    EXPECT_NE(b->attr("data-tip").find("% of roof: "), std::string::npos);
  }
  const std::string text = all_text(*root);
  EXPECT_NE(text.find("66%"), std::string::npos) << text; // 2 TB/s of 3.02 TB/s
  EXPECT_NE(text.find("roof 3.02 TB/s @ 2619 MHz measured"), std::string::npos) << text;
  EXPECT_NE(text.find("launch overhead dominates"), std::string::npos);
  // Measured roofs solid, theoretical dashed, here too.
  for (const auto* l : roofs)
    EXPECT_EQ(l->attr("stroke-dasharray"), l->attr("data-source") == "measured" ? "" : "7 4");

  const std::string term = render_bandwidth_terminal(r);
  EXPECT_NE(term.find("1 more kernel without FLOPs moves no bytes at the memory levels drawn"),
            std::string::npos)
      << term;
  // Every line fits 80 columns (counted in characters).
  std::size_t chars = 0;
  for (unsigned char ch : term) {
    if (ch == '\n') {
      EXPECT_LE(chars, 80u) << term;
      chars = 0;
    } else if ((ch & 0xC0) != 0x80) {
      ++chars;
    }
  }
  EXPECT_NE(term.find("global/copy"), std::string::npos);
  EXPECT_NE(term.find("global/copy  DRAM        2.00 TB/s  66% \u2588"), std::string::npos) << term;
  EXPECT_NE(term.find("L2          3.00 TB/s  62%"), std::string::npos) << term;
}

TEST(chart_overview, terminal_chart_sums_up_data_only_kernels_in_one_line) {
  terminal_options t{80, 20, false, "see --bandwidth"};
  const std::string text = render_roofline_terminal(topic_run(), {}, t);
  EXPECT_NE(text.find("4 kernels move data only (no FLOPs): see --bandwidth"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("transfer/h2d"), std::string::npos);
  EXPECT_EQ(text.find("global/copy"), std::string::npos);
  EXPECT_EQ(text.find("Not plotted"), std::string::npos);
}

TEST(chart_overview, recorded_h100_run_reads_at_a_normal_aspect_ratio) {
  const run r = load_run(std::string(ROOFKIT_TEST_SOURCE_DIR) + "/data/runs/h100-sxm.json");
  const auto root = parse_xml(render_roofline_svg(r));
  const double w = std::stod(root->attr("width")), h = std::stod(root->attr("height"));
  EXPECT_LE(h / w, 0.9) << w << "x" << h;
  const auto labels =
      root->find_all([](const xml_element& e) { return e.has_class("kernel-label"); });
  EXPECT_LE(labels.size(), 10u);
  EXPECT_GE(labels.size(), 3u);
}

} // namespace

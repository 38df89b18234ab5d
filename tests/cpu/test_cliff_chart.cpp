// The cliff chart (SVG, HTML), the cliff file round trip and the findings tables.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "roofkit/cliff.hpp"
#include "roofkit/core.hpp"
#include "roofkit/plot.hpp"
#include "test_chart_xml.hpp"

namespace roofkit {
namespace {

// A block sweep with one predicted step that costs time, one that does not, and one measured
// drop without a step; one point skipped.
cliff_result sample() {
  cliff_result r;
  r.kernel = "cliff/chase";
  r.kernel_description = "pointer chase";
  r.axis = sweep_axis::block;
  r.range = {128, 896, 128, false};
  r.rate_name = "bandwidth";
  r.rate_unit = "B/s";
  r.device = "NVIDIA H100 80GB HBM3";
  r.cc_major = 9;
  r.sm_count = 132;
  r.sm_clock_mhz = 1980;
  r.mem_clock_mhz = 2619;
  r.date = "2026-11-23T15:00:00Z";
  r.command = "roofline-cuda cliff --kernel cliff/chase --sweep block";
  const double occ[] = {1.0, 1.0, 0.75, 0.75, 0.625, 0.625, 0.625};
  const double rate[] = {100e9, 100e9, 80e9, 80e9, 79e9, 60e9, 0};
  for (int i = 0; i < 7; ++i) {
    cliff_point p;
    p.value = 128 * (i + 1);
    p.block = int(p.value);
    p.grid = 8192;
    p.registers = 40;
    p.occupancy_theoretical = occ[i];
    p.active_blocks = int(occ[i] * 2048 / p.value);
    p.limiter = i < 2 ? "warps" : "registers";
    p.occupancy_achieved = occ[i] * 0.9;
    p.time_median_s = rate[i] > 0 ? 1e9 / rate[i] * 1e-3 : 0;
    p.time_min_s = p.time_median_s * 0.99;
    p.time_max_s = p.time_median_s * 1.02;
    p.repetitions = 20;
    p.spread = 0.01;
    p.rate = rate[i];
    p.waves = 2.5;
    if (i == 6) {
      p.status = "skipped";
      p.message = "no block fits";
    }
    r.points.push_back(p);
  }
  analyze_cliffs(r);
  return r;
}

TEST(CliffChart, SampleHasTheExpectedEvents) {
  const auto r = sample();
  ASSERT_EQ(r.steps.size(), 2u);
  ASSERT_EQ(r.changes.size(), 2u);
  ASSERT_EQ(r.events.size(), 3u);
  EXPECT_EQ(r.events[0].verdict, cliff_verdict::agree);
  EXPECT_EQ(r.events[1].verdict, cliff_verdict::predicted_only);
  EXPECT_EQ(r.events[2].verdict, cliff_verdict::measured_only);
}

TEST(CliffChart, SvgMarksEveryStepChangeAndPoint) {
  const auto r = sample();
  const std::string svg = render_cliff_svg(r);
  const auto doc = chart_test::parse_xml(svg); // well-formed or throws
  auto with_class = [&](const char* c) {
    return doc->find_all([&](const chart_test::xml_element& e) { return e.has_class(c); });
  };
  EXPECT_EQ(with_class("predicted-step").size(), r.steps.size());
  EXPECT_EQ(with_class("measured-change").size(), r.changes.size());
  EXPECT_EQ(with_class("point").size(), r.points.size());
  EXPECT_EQ(with_class("achieved-point").size(), r.points.size());
  EXPECT_EQ(with_class("predicted").size(), 1u);
  EXPECT_EQ(with_class("event").size() >= r.events.size(), true);
  const auto steps = with_class("predicted-step");
  EXPECT_EQ(steps[0]->attr("data-verdict"), "agree");
  EXPECT_EQ(steps[0]->attr("data-at"), "2");
  EXPECT_EQ(steps[1]->attr("data-verdict"), "predicted only");
  const auto changes = with_class("measured-change");
  EXPECT_EQ(changes[1]->attr("data-verdict"), "measured only");
  EXPECT_EQ(changes[1]->attr("data-relative"), "-0.2405");
  const auto skipped = doc->find_all([](const chart_test::xml_element& e) {
    return e.has_class("point") && e.attr("data-status") == "skipped";
  });
  EXPECT_EQ(skipped.size(), 1u);
  // The words under the plot.
  EXPECT_NE(svg.find("block 384: occupancy 100% \u2192 75%"), std::string::npos);
  EXPECT_NE(svg.find("agree (registers)"), std::string::npos);
  EXPECT_NE(svg.find("NVIDIA H100 80GB HBM3"), std::string::npos);
  EXPECT_NE(svg.find("1980 MHz"), std::string::npos);
}

TEST(CliffChart, PointsAreOrderedAlongX) {
  const auto doc = chart_test::parse_xml(render_cliff_svg(sample()));
  const auto markers =
      doc->find_all([](const chart_test::xml_element& e) { return e.has_class("achieved-point"); });
  ASSERT_EQ(markers.size(), 7u);
  EXPECT_EQ(markers.front()->attr("data-value"), "128");
  EXPECT_EQ(markers.back()->attr("data-value"), "896");
}

TEST(CliffChart, SizeSweepsMarkTheCacheLevels) {
  cliff_result r;
  r.kernel = "cliff/chase";
  r.axis = sweep_axis::size;
  r.range = {1024, std::int64_t{1} << 26, 4, true};
  r.l1_bytes = 256 * 1024;
  r.l2_bytes = 50 << 20;
  for (std::int64_t n = 1024; n <= (std::int64_t{1} << 26); n *= 4) {
    cliff_point p;
    p.value = n;
    p.working_set_bytes = 4.0 * double(n);
    p.rate = n < (1 << 18) ? 4e12 : n < (1 << 24) ? 2e12 : 0.5e12;
    p.time_median_s = 1e-3;
    p.occupancy_theoretical = 1;
    r.points.push_back(p);
  }
  analyze_cliffs(r);
  const auto doc = chart_test::parse_xml(render_cliff_svg(r));
  const auto levels =
      doc->find_all([](const chart_test::xml_element& e) { return e.has_class("cache-level"); });
  ASSERT_EQ(levels.size(), 2u);
  EXPECT_EQ(levels[0]->attr("data-level"), "L1");
  EXPECT_EQ(levels[1]->attr("data-level"), "L2");
  // Both drops are measured only, explained by the cache level the working set left.
  ASSERT_EQ(r.events.size(), 2u);
  EXPECT_NE(r.events[0].cause.find("crosses the L1"), std::string::npos) << r.events[0].cause;
  EXPECT_NE(r.events[1].cause.find("crosses the L2"), std::string::npos) << r.events[1].cause;
}

TEST(CliffChart, EmptySweepStillDraws) {
  cliff_result r;
  r.kernel = "k";
  r.range = {1, 1, 1, false};
  const std::string svg = render_cliff_svg(r);
  EXPECT_NO_THROW(chart_test::parse_xml(svg));
  EXPECT_NE(svg.find("No predicted step and no measured change"), std::string::npos);
}

TEST(CliffChart, HtmlIsSelfContained) {
  const std::string html = render_cliff_html(sample());
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("id=\"cliff_events\""), std::string::npos);
  EXPECT_NE(html.find("id=\"cliff_points\""), std::string::npos);
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find("<script src"), std::string::npos);
}

TEST(CliffChart, WritesByExtension) {
  const auto dir = std::filesystem::temp_directory_path() / "roofkit_cliff_chart_test";
  std::filesystem::create_directories(dir);
  const auto r = sample();
  write_cliff_chart(r, dir / "c.svg");
  write_cliff_chart(r, dir / "c.html");
  EXPECT_GT(std::filesystem::file_size(dir / "c.svg"), 1000u);
  EXPECT_GT(std::filesystem::file_size(dir / "c.html"), 1000u);
  try {
    write_cliff_chart(r, dir / "c.bmp");
    ADD_FAILURE() << "no error for .bmp";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), exit_code::usage);
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "c.bmp"));
  std::filesystem::remove_all(dir);
}

TEST(CliffFile, RoundTrip) {
  const auto r = sample();
  const auto back = parse_cliff(to_json_text(r), "test");
  EXPECT_EQ(back.kernel, r.kernel);
  EXPECT_EQ(back.axis, r.axis);
  EXPECT_EQ(to_string(back.range), to_string(r.range));
  EXPECT_EQ(back.device, r.device);
  EXPECT_EQ(back.cc_major, 9);
  EXPECT_EQ(back.sm_count, 132);
  ASSERT_EQ(back.points.size(), r.points.size());
  EXPECT_EQ(back.points[6].status, "skipped");
  EXPECT_DOUBLE_EQ(back.points[2].rate, 80e9);
  EXPECT_DOUBLE_EQ(*back.points[2].occupancy_achieved, 0.75 * 0.9);
  EXPECT_EQ(back.points[3].limiter, "registers");
  ASSERT_EQ(back.events.size(), r.events.size());
  for (std::size_t i = 0; i < r.events.size(); ++i)
    EXPECT_EQ(back.events[i].verdict, r.events[i].verdict);
  EXPECT_EQ(to_json_text(back), to_json_text(r));
}

TEST(CliffFile, BadFilesNameTheProblem) {
  auto message = [](const std::string& text) {
    try {
      parse_cliff(text, "x.json");
    } catch (const error& e) {
      EXPECT_EQ(e.code(), exit_code::usage);
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("{").find("x.json: not valid JSON"), std::string::npos);
  EXPECT_NE(message(R"({"schema":"roofkit.run/1"})").find("is not roofkit.cliff/1"),
            std::string::npos);
  std::string text = to_json_text(sample());
  const auto pos = text.find("\"sweep\": \"block\"");
  ASSERT_NE(pos, std::string::npos);
  text.replace(pos, 16, "\"sweep\": \"warp\"");
  EXPECT_NE(message(text).find("'warp'"), std::string::npos);
  EXPECT_NE(message(R"({"schema":"roofkit.cliff/1"})").find("has no field 'context'"),
            std::string::npos);
}

TEST(CliffTables, EventsAndPointsAndMarkdown) {
  const auto r = sample();
  const auto ev = cliff_events_table(r);
  ASSERT_EQ(ev.rows.size(), 3u);
  EXPECT_EQ(to_text(ev.rows[0][0]), "384");
  EXPECT_EQ(to_text(ev.rows[0][1]), "100% -> 75% (8 -> 4 blocks/SM)");
  EXPECT_EQ(to_text(ev.rows[0][3]), "agree");
  EXPECT_EQ(to_text(ev.rows[2][3]), "measured only");
  EXPECT_TRUE(ev.highlight[0]);
  const auto pt = cliff_points_table(r);
  ASSERT_EQ(pt.rows.size(), 7u);
  EXPECT_EQ(to_text(pt.rows[6][1]), "skipped: no block fits");
  std::size_t dram = 0;
  for (std::size_t i = 0; i < pt.columns.size(); ++i)
    if (pt.columns[i].key == "dram_bandwidth")
      dram = i;
  ASSERT_GT(dram, 0u);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(pt.rows[0][dram])); // no counters
  auto with_counters = r;
  with_counters.points[0].counted["dram_bytes"] = 2e9; // over the median time
  EXPECT_DOUBLE_EQ(std::get<double>(cliff_points_table(with_counters).rows[0][dram]),
                   2e9 / with_counters.points[0].time_median_s * 1e-9);
  const std::string md = cliff_markdown(r, "data/cliffs/x.json");
  EXPECT_NE(md.find("### cliff/chase: block sweep (128:896:128)"), std::string::npos);
  EXPECT_NE(md.find("2 predicted occupancy steps, 2 measured changes: 1 agree, 1 predicted "
                    "only, 1 measured only, 0 opposite."),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("`data/cliffs/x.json`"), std::string::npos);
  EXPECT_EQ(md.find("\n## "), std::string::npos); // table titles do not break the heading level
}

TEST(CliffExec, SweepsAProgramByItsOwnFigure) {
  exec_sweep_options o;
  // A "program" whose time is 10 ms up to 256 threads and 20 ms above.
  o.command = "v={}; if [ $v -le 256 ]; then echo 'took 10.0 ms'; else echo 'took 20.0 ms'; fi";
  o.axis = sweep_axis::block;
  o.range = {128, 512, 128, false};
  o.repetitions = 2;
  o.metric_regex = "took ([0-9.]+) ms";
  o.metric_scale = 1e-3;
  o.registers = 64; // 64 registers: 1024 threads per SM at most (50%)
  const auto r = run_exec_sweep(o);
  ASSERT_EQ(r.points.size(), 4u);
  EXPECT_DOUBLE_EQ(r.points[0].time_median_s, 0.010);
  EXPECT_DOUBLE_EQ(r.points[3].time_median_s, 0.020);
  EXPECT_DOUBLE_EQ(r.points[0].occupancy_theoretical, 0.5);
  ASSERT_EQ(r.changes.size(), 1u);
  EXPECT_EQ(r.changes[0].at, 2u);
  EXPECT_NEAR(r.changes[0].relative, -0.5, 1e-12);
  // 64 registers: 384 threads fit twice (37.5%), 256 and 512 give 50%.
  ASSERT_EQ(r.events.size(), 2u);
  EXPECT_EQ(r.events[0].verdict, cliff_verdict::agree);
  EXPECT_EQ(r.events[0].at, 2u);
  EXPECT_DOUBLE_EQ(r.points[2].occupancy_theoretical, 0.375);
  EXPECT_EQ(r.events[1].verdict, cliff_verdict::predicted_only);
  EXPECT_EQ(r.events[1].at, 3u);
}

TEST(CliffExec, ErrorsAreClear) {
  exec_sweep_options o;
  o.command = "true";
  o.range = {64, 128, 64, false};
  EXPECT_THROW(run_exec_sweep(o), error); // no {}
  o.command = "exit 3 # {}";
  const auto r = run_exec_sweep(o);
  EXPECT_EQ(r.points[0].status, "error");
  EXPECT_NE(r.points[0].message.find("status 3"), std::string::npos);
  o.command = "echo nothing {}";
  o.metric_regex = "took ([0-9.]+)";
  EXPECT_NE(run_exec_sweep(o).points[0].message.find("does not match"), std::string::npos);
  o.metric_regex = "(";
  EXPECT_THROW(run_exec_sweep(o), error);
  o.metric_regex = "took";
  EXPECT_THROW(run_exec_sweep(o), error); // no group
}

} // namespace
} // namespace roofkit

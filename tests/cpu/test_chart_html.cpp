// The HTML page: self-contained (no external reference of any kind), the chart inline, a
// sortable table whose rows link to the points.
#include <regex>
#include <set>

#include <gtest/gtest.h>

#include "roofkit/plot.hpp"
#include "test_chart_runs.hpp"
#include "test_chart_xml.hpp"

namespace {

using namespace roofkit;

std::string lower(std::string s) {
  for (auto& c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Every way a page can reach outside itself.
void expect_self_contained(const std::string& page) {
  const std::string p = lower(page);
  EXPECT_EQ(p.find("http:"), std::string::npos);
  EXPECT_EQ(p.find("https:"), std::string::npos);
  EXPECT_EQ(p.find("ftp:"), std::string::npos);
  EXPECT_EQ(p.find("//cdn"), std::string::npos);
  EXPECT_EQ(p.find("src="), std::string::npos);
  EXPECT_EQ(p.find("href="), std::string::npos);
  EXPECT_EQ(p.find("@import"), std::string::npos);
  EXPECT_EQ(p.find("<link"), std::string::npos);
  EXPECT_EQ(p.find("@font-face"), std::string::npos);
  EXPECT_EQ(p.find("fetch("), std::string::npos);
  EXPECT_EQ(p.find("xmlhttprequest"), std::string::npos);
  // url(...) only to #fragments or data: URIs.
  const std::regex url(R"(url\(\s*['"]?([^'")\s]*))");
  for (auto it = std::sregex_iterator(p.begin(), p.end(), url); it != std::sregex_iterator();
       ++it) {
    const std::string target = (*it)[1];
    EXPECT_TRUE(target.rfind("#", 0) == 0 || target.rfind("data:", 0) == 0) << target;
  }
}

TEST(chart_html, is_self_contained) {
  expect_self_contained(render_roofline_html(chart_test::mixed_run()));
  expect_self_contained(render_roofline_html(chart_test::crowded_run(30)));
  // The checks themselves catch external references.
  EXPECT_NE(lower("<script SRC=\"x.js\">").find("src="), std::string::npos);
}

TEST(chart_html, holds_chart_table_and_script_inline) {
  const run r = chart_test::mixed_run();
  const std::string page = render_roofline_html(r);
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  // Two charts: the roofline, then the bandwidth view of the copy (a kernel without FLOPs).
  const auto second_svg = page.find("<svg", page.find("<svg") + 1);
  ASSERT_NE(second_svg, std::string::npos);
  EXPECT_EQ(page.find("<svg", second_svg + 1), std::string::npos);
  EXPECT_GT(page.find("id=\"bandwidth\""), page.find("id=\"roofline\""));
  const auto svg_start = page.find("<svg");
  const auto svg_end = page.find("</svg>");
  ASSERT_NE(svg_start, std::string::npos);
  ASSERT_NE(svg_end, std::string::npos);
  const auto svg = chart_test::parse_xml(page.substr(svg_start, svg_end + 6 - svg_start));
  std::set<std::string> point_groups;
  for (const auto* g :
       svg->find_all([](const chart_test::xml_element& e) { return e.has_class("kernel"); }))
    point_groups.insert(g->attr("id"));
  EXPECT_EQ(point_groups, (std::set<std::string>{"k0", "k1", "k2", "k3"}));

  // One row per plotted kernel, linked to its group by data-kernel, plus the excluded ones.
  std::set<std::string> rows;
  const std::regex row(R"re(<tr data-kernel="(k[0-9]+)" data-topic)re");
  for (auto it = std::sregex_iterator(page.begin(), page.end(), row); it != std::sregex_iterator();
       ++it)
    rows.insert((*it)[1]);
  EXPECT_EQ(rows, point_groups);
  EXPECT_NE(page.find("<tr class=\"excluded\" data-kernel=\"k5\""), std::string::npos);
  EXPECT_NE(page.find("<tr class=\"data-only\" data-kernel=\"k4\""), std::string::npos);
  EXPECT_NE(page.find("not plotted: failed: verification"), std::string::npos);
  // Numeric sort keys carry full precision.
  EXPECT_NE(page.find("data-sort=\"1365.33333\""), std::string::npos);
  // The inline script handles hover both ways and sorting.
  EXPECT_NE(page.find("<script>"), std::string::npos);
  EXPECT_NE(page.find("mouseenter"), std::string::npos);
  EXPECT_NE(page.find("g.kernel"), std::string::npos);
  EXPECT_NE(page.find("sorted-asc"), std::string::npos);
  EXPECT_NE(page.find("ANALYTICAL"), std::string::npos);
  // Columns: the levels present, bound and % of roof.
  for (const char* h :
       {"Intensity DRAM (FLOP/B)", "Intensity L2 (FLOP/B)", "Intensity L1/shared (FLOP/B)", "Bound",
        "% of roof", "Topic", "Compute roof", "Occupancy", "Note"})
    EXPECT_NE(page.find(h), std::string::npos) << h;
}

TEST(chart_html, has_search_hover_box_and_legend_toggles) {
  const std::string page = render_roofline_html(chart_test::mixed_run());
  EXPECT_NE(page.find("<input id=\"search\" type=\"search\""), std::string::npos);
  EXPECT_NE(page.find("<div id=\"tip\" role=\"tooltip\"></div>"), std::string::npos);
  // Every point carries its hover text; every level in the legend toggles.
  const auto svg_start = page.find("<svg");
  const auto svg =
      chart_test::parse_xml(page.substr(svg_start, page.find("</svg>") + 6 - svg_start));
  const auto points =
      svg->find_all([](const chart_test::xml_element& e) { return e.has_class("point"); });
  ASSERT_FALSE(points.empty());
  for (const auto* p : points)
    for (const char* part :
         {"level: ", "intensity: ", "achieved: ", "% of roof: ", "bound: ", "occupancy: "})
      EXPECT_NE(p->attr("data-tip").find(part), std::string::npos) << part;
  const auto toggles = svg->find_all([](const chart_test::xml_element& e) {
    return e.has_class("toggle") && e.has_class("legend-level");
  });
  EXPECT_EQ(toggles.size(), 3u);
  // The script handles the box, the toggles and the search.
  for (const char* s : {"showTip", "offTopics", "offLevels", "new RegExp", "'input'"})
    EXPECT_NE(page.find(s), std::string::npos) << s;
}

} // namespace

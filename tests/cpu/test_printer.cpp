#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "roofkit/core.hpp"
#include "roofkit/printer.hpp"

namespace {

roofkit::table printer_sample() {
  roofkit::table t;
  t.id = "limits";
  t.title = "Limits";
  t.columns = {{"resource", "Resource"}, {"blocks", "Blocks"}, {"pct", "Occupancy", "%", 1}};
  t.rows = {{std::string("warps"), std::int64_t{4}, 100.0},
            {std::string("regs, \"x\""), std::int64_t{3}, 75.25}};
  t.highlight = {false, true};
  return t;
}

TEST(printer, markdown_aligns_and_highlights) {
  std::ostringstream out;
  auto p = roofkit::make_printer(roofkit::output_format::markdown, out);
  p->print(printer_sample());
  p->finish();
  const std::string s = out.str();
  EXPECT_NE(s.find("## Limits"), std::string::npos);
  EXPECT_NE(s.find("| Occupancy (%) |"), std::string::npos);
  EXPECT_NE(s.find("**75.2**"), std::string::npos) << s; // 75.25 rounds half-to-even at 1 dp
  EXPECT_NE(s.find("100.0"), std::string::npos);
}

TEST(printer, csv_quotes_fields) {
  std::ostringstream out;
  roofkit::make_printer(roofkit::output_format::csv, out)->print(printer_sample());
  EXPECT_EQ(out.str(), "resource,blocks,pct\nwarps,4,100\n\"regs, \"\"x\"\"\",3,75.25\n");
}

TEST(printer, json_keeps_types) {
  std::ostringstream out;
  auto p = roofkit::make_printer(roofkit::output_format::json, out);
  p->print(printer_sample());
  p->finish();
  const auto doc = nlohmann::json::parse(out.str());
  ASSERT_TRUE(doc.is_object()) << "one table is still an object keyed by its id";
  ASSERT_EQ(doc.size(), 1u);
  const auto& j = doc.at("limits");
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[1]["blocks"].get<int>(), 3);
  EXPECT_DOUBLE_EQ(j[1]["pct"].get<double>(), 75.25);
  EXPECT_EQ(j[0]["resource"], "warps");
}

TEST(printer, unknown_format_is_a_usage_error) {
  try {
    roofkit::parse_output_format("xml");
    FAIL() << "expected an error";
  } catch (const roofkit::error& e) {
    EXPECT_EQ(e.code(), roofkit::exit_code::usage);
    EXPECT_NE(std::string(e.what()).find("xml"), std::string::npos);
  }
}

} // namespace

// The library's one CSV reader (lib/src/internal/csv.hpp), used by the ncu importer and the
// occupancy batch: quoting, CRLF, blank lines, line numbers, and views that stay put.
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "internal/csv.hpp"

namespace {

using roofkit::detail::csv_reader;
using roofkit::detail::read_csv;

std::vector<std::vector<std::string>> fields_of(std::string_view text) {
  std::vector<std::vector<std::string>> out;
  for (const auto& r : read_csv(text))
    out.push_back(r.fields);
  return out;
}

TEST(csv_reader, quoted_fields_doubled_quotes_and_crlf) {
  const auto rows = fields_of("a,\"b,c\",\"say \"\"hi\"\"\"\r\n1,2,3\r\n");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"a", "b,c", "say \"hi\""}));
  EXPECT_EQ(rows[1], (std::vector<std::string>{"1", "2", "3"}));
}

TEST(csv_reader, blank_lines_skipped_and_records_keep_their_first_line) {
  const auto records = read_csv("\n\nx,y\n\"multi\nline\",z\n\nlast", 10);
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0].line, 12);
  EXPECT_EQ(records[1].line, 13);
  EXPECT_EQ(records[1].fields[0], "multi\nline");
  EXPECT_EQ(records[2].line, 16);
  EXPECT_EQ(records[2].fields, (std::vector<std::string>{"last"}));
}

TEST(csv_reader, empty_fields_at_the_ends_and_text_after_a_closing_quote) {
  EXPECT_EQ(fields_of("a,"), (std::vector<std::vector<std::string>>{{"a", ""}}));
  EXPECT_EQ(fields_of(",b\n"), (std::vector<std::vector<std::string>>{{"", "b"}}));
  EXPECT_EQ(fields_of("\"ab\"c\"d\",e"),
            (std::vector<std::vector<std::string>>{{"abc\"d\"", "e"}}));
  EXPECT_EQ(fields_of("mid\"quote,x"),
            (std::vector<std::vector<std::string>>{{"mid\"quote", "x"}}));
  EXPECT_TRUE(fields_of("").empty());
  EXPECT_TRUE(fields_of("\r\n\n").empty());
}

TEST(csv_reader, unquoted_fields_point_into_the_text) {
  const std::string text = "sm_90,256\n";
  csv_reader reader(text);
  std::vector<std::string_view> fields;
  int line = 0;
  ASSERT_TRUE(reader.next(fields, line));
  EXPECT_EQ(line, 1);
  ASSERT_EQ(fields.size(), 2u);
  EXPECT_EQ(fields[0].data(), text.data());
  EXPECT_EQ(fields[1], "256");
  EXPECT_FALSE(reader.next(fields, line));
}

} // namespace

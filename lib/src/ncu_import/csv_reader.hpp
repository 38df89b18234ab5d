#pragma once
// A small RFC 4180 reader (quoted fields, doubled quotes, CRLF), internal to the library.
#include <string>
#include <string_view>
#include <vector>

namespace roofkit::detail {

/// One CSV record and the 1-based line it starts on.
struct csv_record {
  std::vector<std::string> fields;
  int line = 0;
};

/// Splits CSV text into records; blank lines are skipped.
std::vector<csv_record> read_csv(std::string_view text, int first_line = 1);

} // namespace roofkit::detail

#pragma once
// The library's one CSV reader (RFC 4180: quoted fields, doubled quotes, CRLF), internal to the
// library: the ncu importer and the occupancy batch both read through it.
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace roofkit::detail {

/// Reads CSV text record by record without copying unquoted fields.
class csv_reader {
public:
  explicit csv_reader(std::string_view text, int first_line = 1) : text_(text), line_(first_line) {}

  /// The next record that is not a blank line; false at the end. The fields stay valid until
  /// the next call (unquoted ones point into the text). `line` is the 1-based line it starts on.
  bool next(std::vector<std::string_view>& fields, int& line);

private:
  std::string_view text_;
  std::size_t pos_ = 0;
  int line_;
  std::deque<std::string> owned_; // fields that needed unquoting or had a CR removed
};

/// One CSV record and the 1-based line it starts on.
struct csv_record {
  std::vector<std::string> fields;
  int line = 0;
};

/// Splits CSV text into records; blank lines are skipped.
std::vector<csv_record> read_csv(std::string_view text, int first_line = 1);

} // namespace roofkit::detail

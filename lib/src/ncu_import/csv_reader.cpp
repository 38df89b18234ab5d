#include "csv_reader.hpp"

namespace roofkit::detail {

std::vector<csv_record> read_csv(std::string_view text, int first_line) {
  std::vector<csv_record> records;
  csv_record current;
  current.line = first_line;
  std::string field;
  bool quoted = false;
  bool field_started = false;
  int line = first_line;

  auto end_field = [&] {
    current.fields.push_back(std::move(field));
    field.clear();
    field_started = false;
  };
  auto end_record = [&] {
    const bool blank = current.fields.size() == 1 && current.fields[0].empty();
    if (!blank)
      records.push_back(std::move(current));
    current = {};
    current.line = line;
  };

  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        if (c == '\n')
          ++line;
        field += c;
      }
      continue;
    }
    switch (c) {
    case '"':
      if (!field_started) {
        quoted = true;
        field_started = true;
      } else {
        field += c;
      }
      break;
    case ',':
      end_field();
      break;
    case '\r':
      break;
    case '\n':
      end_field();
      ++line;
      end_record();
      break;
    default:
      field += c;
      field_started = true;
    }
  }
  if (field_started || !field.empty() || !current.fields.empty()) {
    end_field();
    end_record();
  }
  return records;
}

} // namespace roofkit::detail

#include "internal/csv.hpp"

#include <algorithm>

namespace roofkit::detail {

bool csv_reader::next(std::vector<std::string_view>& fields, int& line) {
  while (pos_ < text_.size()) {
    fields.clear();
    owned_.clear();
    line = line_;
    bool end_of_record = false;
    while (!end_of_record) {
      // One field: [pos_, end) unquoted, or a quoted run copied into owned_.
      if (pos_ < text_.size() && text_[pos_] == '"') {
        std::string& f = owned_.emplace_back();
        std::size_t i = pos_ + 1;
        for (; i < text_.size(); ++i) {
          const char c = text_[i];
          if (c == '"') {
            if (i + 1 < text_.size() && text_[i + 1] == '"') {
              f += '"';
              ++i;
              continue;
            }
            break;
          }
          if (c == '\n')
            ++line_;
          f += c;
        }
        // After the closing quote, text up to the delimiter belongs to the field (as read).
        for (i = i + 1; i < text_.size() && text_[i] != ',' && text_[i] != '\n'; ++i)
          if (text_[i] != '\r')
            f += text_[i];
        pos_ = i;
        fields.emplace_back(f);
      } else {
        const std::size_t end = std::min(text_.find_first_of(",\n", pos_), text_.size());
        std::string_view f = text_.substr(pos_, end - pos_);
        if (f.find('\r') != std::string_view::npos) {
          std::string& copy = owned_.emplace_back();
          for (char c : f)
            if (c != '\r')
              copy += c;
          f = copy;
        }
        fields.push_back(f);
        pos_ = end;
      }
      if (pos_ >= text_.size()) {
        end_of_record = true;
      } else if (text_[pos_] == '\n') {
        ++pos_;
        ++line_;
        end_of_record = true;
      } else {
        ++pos_; // the comma
        if (pos_ >= text_.size()) {
          fields.emplace_back();
          end_of_record = true;
        }
      }
    }
    if (!(fields.size() == 1 && fields[0].empty()))
      return true;
  }
  return false;
}

std::vector<csv_record> read_csv(std::string_view text, int first_line) {
  std::vector<csv_record> records;
  csv_reader reader(text, first_line);
  std::vector<std::string_view> fields;
  int line = 0;
  while (reader.next(fields, line))
    records.push_back({std::vector<std::string>(fields.begin(), fields.end()), line});
  return records;
}

} // namespace roofkit::detail

#include "roofkit/printer.hpp"

#include <algorithm>
#include <cmath>
#include <ostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "internal/cell_json.hpp"
#include "roofkit/core.hpp"

namespace roofkit {

namespace detail {

nlohmann::json cell_to_json(const cell& c) {
  return std::visit(
      [](const auto& v) -> nlohmann::json {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>)
          return nullptr;
        else if constexpr (std::is_same_v<T, double>)
          return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
        else
          return v;
      },
      c);
}

} // namespace detail

namespace {

std::string format_number(double v, int decimals) {
  if (!std::isfinite(v))
    return std::isnan(v) ? "n/a" : (v > 0 ? "inf" : "-inf");
  return fmt::format("{:.{}f}", v, std::max(decimals, 0));
}

std::string markdown_text(const cell& c, const column& col) {
  if (const auto* d = std::get_if<double>(&c))
    return format_number(*d, col.decimals);
  return to_text(c);
}

bool is_numeric(const cell& c) {
  return std::holds_alternative<double>(c) || std::holds_alternative<std::int64_t>(c);
}

class markdown_printer final : public printer {
public:
  explicit markdown_printer(std::ostream& out) : out_(out) {}

  void print(const table& t) override {
    if (!t.title.empty())
      out_ << "## " << t.title << "\n\n";
    const std::size_t n = t.columns.size();
    std::vector<std::string> headers(n);
    std::vector<std::size_t> width(n, 3);
    for (std::size_t i = 0; i < n; ++i) {
      const auto& col = t.columns[i];
      headers[i] = col.unit.empty() ? col.header : fmt::format("{} ({})", col.header, col.unit);
      width[i] = std::max(width[i], headers[i].size());
    }
    std::vector<std::vector<std::string>> text(t.rows.size(), std::vector<std::string>(n));
    std::vector<bool> right(n, false);
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
      const bool bold = r < t.highlight.size() && t.highlight[r];
      for (std::size_t i = 0; i < n && i < t.rows[r].size(); ++i) {
        std::string s = markdown_text(t.rows[r][i], t.columns[i]);
        if (bold && !s.empty())
          s = "**" + s + "**";
        right[i] = right[i] || is_numeric(t.rows[r][i]);
        width[i] = std::max(width[i], s.size());
        text[r][i] = std::move(s);
      }
    }
    auto line = [&](const std::vector<std::string>& cells) {
      out_ << '|';
      for (std::size_t i = 0; i < n; ++i)
        out_ << ' '
             << (right[i] ? fmt::format("{:>{}}", cells[i], width[i])
                          : fmt::format("{:<{}}", cells[i], width[i]))
             << " |";
      out_ << '\n';
    };
    line(headers);
    out_ << '|';
    for (std::size_t i = 0; i < n; ++i)
      out_ << (right[i] ? fmt::format("{:->{}}:|", "", width[i] + 1)
                        : fmt::format("{:-<{}}|", "", width[i] + 2));
    out_ << '\n';
    for (const auto& row : text)
      line(row);
    for (const auto& note : t.notes)
      out_ << '\n' << note << '\n';
    out_ << '\n';
  }

private:
  std::ostream& out_;
};

class csv_printer final : public printer {
public:
  explicit csv_printer(std::ostream& out) : out_(out) {}

  void print(const table& t) override {
    if (tables_++ > 0)
      out_ << '\n';
    for (std::size_t i = 0; i < t.columns.size(); ++i)
      out_ << (i ? "," : "") << csv_escape(t.columns[i].key);
    out_ << '\n';
    for (const auto& row : t.rows) {
      for (std::size_t i = 0; i < t.columns.size(); ++i)
        out_ << (i ? "," : "") << (i < row.size() ? csv_escape(to_text(row[i])) : "");
      out_ << '\n';
    }
  }

private:
  std::ostream& out_;
  int tables_ = 0;
};

class json_printer final : public printer {
public:
  explicit json_printer(std::ostream& out) : out_(out) {}

  void print(const table& t) override {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& row : t.rows) {
      nlohmann::json obj = nlohmann::json::object();
      for (std::size_t i = 0; i < t.columns.size() && i < row.size(); ++i)
        obj[t.columns[i].key] = detail::cell_to_json(row[i]);
      rows.push_back(std::move(obj));
    }
    tables_.emplace_back(t.id.empty() ? "table" : t.id, std::move(rows));
  }

  // Always one object keyed by table id, however many tables were printed, so that a script
  // reads doc["<id>"] the same way for every command.
  void finish() override {
    nlohmann::json doc = nlohmann::json::object();
    for (auto& [id, rows] : tables_)
      doc[id] = std::move(rows);
    out_ << doc.dump(2) << '\n';
    tables_.clear();
  }

private:
  std::ostream& out_;
  std::vector<std::pair<std::string, nlohmann::json>> tables_;
};

} // namespace

cell positive_or_empty(double v, double scale) {
  return std::isfinite(v) && v > 0 ? cell(v * scale) : cell(std::monostate{});
}

std::string to_text(const cell& c) {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>)
          return "";
        else if constexpr (std::is_same_v<T, std::string>)
          return v;
        else if constexpr (std::is_same_v<T, bool>)
          return v ? "true" : "false";
        else if constexpr (std::is_same_v<T, double>)
          return std::isfinite(v) ? fmt::format("{}", v) : "";
        else
          return fmt::format("{}", v);
      },
      c);
}

std::string csv_escape(const std::string& field) {
  if (field.find_first_of(",\"\n\r") == std::string::npos)
    return field;
  std::string quoted = "\"";
  for (char ch : field) {
    if (ch == '"')
      quoted += '"';
    quoted += ch;
  }
  return quoted + '"';
}

std::unique_ptr<printer> make_printer(output_format format, std::ostream& out) {
  switch (format) {
  case output_format::csv:
    return std::make_unique<csv_printer>(out);
  case output_format::json:
    return std::make_unique<json_printer>(out);
  case output_format::markdown:
    break;
  }
  return std::make_unique<markdown_printer>(out);
}

output_format parse_output_format(const std::string& name) {
  if (name == "markdown" || name == "md")
    return output_format::markdown;
  if (name == "csv")
    return output_format::csv;
  if (name == "json")
    return output_format::json;
  throw usage_error(fmt::format("unknown output format '{}' (valid: markdown, csv, json)", name));
}

} // namespace roofkit

#pragma once
// roofkit/printer.hpp: tables and their printers (Markdown, CSV, JSON).

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace roofkit {

/// One value in a table: empty, text, integer, real number or boolean.
using cell = std::variant<std::monostate, std::string, std::int64_t, double, bool>;

/// A table column: a stable key (JSON/CSV name), a header for people, an optional unit and the
/// number of decimals shown in the Markdown table (CSV and JSON always carry full precision).
struct column {
  std::string key;
  std::string header;
  std::string unit{};
  int decimals = 2;
};

/// A table of results, the unit every printer understands.
struct table {
  std::string id;    ///< key of the table in JSON output
  std::string title; ///< heading in Markdown output
  std::vector<column> columns;
  std::vector<std::vector<cell>> rows;
  std::vector<bool> highlight;    ///< per row: emphasise it in Markdown (e.g. the limiter)
  std::vector<std::string> notes; ///< lines printed under the table in Markdown
};

/// Output formats shared by every tool.
enum class output_format { markdown, csv, json };

/// nvbench-style printer interface: tables in, one format out.
class printer {
public:
  virtual ~printer() = default;
  /// Prints (or collects) one table.
  virtual void print(const table& t) = 0;
  /// Ends the output (the JSON printer writes its document here).
  virtual void finish() {}
};

/// A printer writing the given format to `out`.
std::unique_ptr<printer> make_printer(output_format format, std::ostream& out);

/// Parses "markdown", "md", "csv" or "json"; throws usage_error otherwise.
output_format parse_output_format(const std::string& name);

/// v * scale when v is finite and positive, otherwise an empty cell (a figure not measured).
cell positive_or_empty(double v, double scale = 1);

/// Formats a cell as plain text (full precision for numbers).
std::string to_text(const cell& c);

/// Quotes a CSV field when it needs it (RFC 4180).
std::string csv_escape(const std::string& field);

} // namespace roofkit

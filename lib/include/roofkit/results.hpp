#pragma once
#include <filesystem>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "roofkit/printer.hpp"
#include "roofkit/roofline.hpp"
#include "roofkit/run.hpp"

namespace roofkit {

/// The schema name this roofkit writes; it reads "roofkit.run/1" and "roofkit.run/1.N".
inline constexpr std::string_view run_schema = "roofkit.run/1";

/// The run as `roofkit.run/1` JSON text: raw values and, beside them, the derived values of the
/// roofline model (intensity, achieved, attainable, bound, pct_of_roof) computed by analyze().
std::string to_json_text(const run& r);

/// Parses `roofkit.run/1` JSON. Derived values in the text are ignored (analyze() recomputes
/// them). Throws usage_error naming `source_name` and what is wrong: malformed JSON, another
/// schema or major version, a missing or mistyped field.
run parse_run(std::string_view text, const std::string& source_name);

/// Reads and parses a run file; usage_error when it is missing, unreadable or invalid.
run load_run(const std::filesystem::path& path);

/// The kernels of a run whose name matches `regex` (ECMAScript, searched anywhere); usage_error
/// for an invalid regex or when none matches.
std::vector<kernel_result> select_run_kernels(const run& r, const std::string& regex);

/// Writes a run file atomically (runtime_error on failure).
void save_run(const std::filesystem::path& path, const run& r);

/// True when the run was not measured on this machine: origin "recorded", the `recorded` flag,
/// or a context host that is not this machine's host name.
bool run_is_from_elsewhere(const run& r, bool recorded = false);

/// One sentence stating where the run comes from, e.g. "Recorded run from NVIDIA H100 80GB HBM3
/// on 2026-11-22 - not measured on this machine".
std::string provenance_line(const run& r, bool recorded = false);

/// The clocks the run and its ceilings hold at, e.g. "SM clock 1980 MHz, memory clock 2619 MHz;
/// ceilings: theoretical".
std::string clocks_line(const run& r);

/// The context block as a key/value table (id "context"), the provenance line first.
table context_table(const run& r, bool recorded = false);

/// The ceilings (id "ceilings"): one row per compute and memory roof, with value, unit, source,
/// clocks, method and, for compute roofs, the ridge point against each memory level.
table ceilings_table(const run& r);

/// The kernels (id "kernels"): time, achieved FLOP/s, intensity and bandwidth per level present
/// in the run, bound, % of roof, attainable FLOP/s, occupancy, status and source.
/// `placements` are analyze(r) (one per kernel, same order).
table kernels_table(const run& r, const std::vector<kernel_placement>& placements);

/// What print_run_report prints.
struct report_options {
  bool recorded = false;      ///< say "not measured on this machine" whatever the context
  std::string tables = "all"; ///< "all", "context", "ceilings" or "kernels"
  std::string source_name;    ///< the file the run was read from (shown in Markdown)
  /// Markdown: every column (about 300 characters a line). Default: tables and lines that fit
  /// 120 columns (CSV and JSON always hold every column).
  bool wide = false;
  /// Markdown, narrow tables: how to see every column, added to the kernels table's notes
  /// (a tool names its flag here); "" adds nothing.
  std::string wide_hint;
};

/// Prints a run: in Markdown a heading, the provenance and clocks lines, then the ceilings,
/// kernels and context tables; in CSV and JSON the context, ceilings and kernels tables.
void print_run_report(const run& r, output_format format, std::ostream& out,
                      const report_options& options = {});

} // namespace roofkit

#pragma once
// roofkit/results.hpp: results files (roofkit.run/1): reading, writing, tables, comparison of two
// runs.

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofkit/printer.hpp"
#include "roofkit/roofline.hpp"
#include "roofkit/run.hpp"

// ---- results ----
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

/// What identifies a machine for provenance: its machine id and its GPUs' UUIDs.
struct machine_identity {
  std::string machine_id;
  std::vector<std::string> gpu_uuids;
};

/// This machine's identity (machine_id(), visible_gpu_uuids()), read once.
const machine_identity& this_machine();

/// True when the run was not measured on `here`: origin "recorded", the `recorded` flag, or a
/// context whose GPU UUID is not one of here's GPUs (for a run without a GPU UUID: whose machine
/// id is not here's). A run naming neither is from elsewhere: a host name alone never decides.
bool run_is_from_elsewhere(const run& r, bool recorded, const machine_identity& here);
/// run_is_from_elsewhere against this_machine().
bool run_is_from_elsewhere(const run& r, bool recorded = false);

/// One sentence stating where the run comes from, e.g. "Recorded run from NVIDIA H100 80GB HBM3
/// on 2026-11-22 - not measured on this machine".
std::string provenance_line(const run& r, bool recorded = false);
/// provenance_line judged against `here` instead of this machine.
std::string provenance_line(const run& r, bool recorded, const machine_identity& here);

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
  /// More tables printed after the kernels table with "all" (a profiled application's
  /// per-NVTX-range table).
  std::vector<table> extra_tables;
};

/// Prints a run: in Markdown a heading, the provenance and clocks lines, then the ceilings,
/// kernels and context tables; in CSV and JSON the context, ceilings and kernels tables.
void print_run_report(const run& r, output_format format, std::ostream& out,
                      const report_options& options = {});

} // namespace roofkit

// ---- compare ----
namespace roofkit {

/// One kernel in two runs. Kernels are matched by name: the i-th kernel of a name in `before`
/// with the i-th kernel of that name in `after`.
struct kernel_change {
  std::string name;
  bool in_before = false;
  bool in_after = false;
  kernel_placement before;  ///< its placement in the first run (default when absent)
  kernel_placement after;   ///< its placement in the second run (default when absent)
  double time_before_s = 0; ///< median time, 0 when absent
  double time_after_s = 0;
  double speedup = 0;         ///< time_before / time_after (> 1: faster); 0 unless both timed
  double time_change_pct = 0; ///< 100 x (after - before) / before; 0 unless both timed
  std::optional<memory_level> intensity_level; ///< the level whose intensity is compared
  double intensity_before = 0;                 ///< FLOP/B at intensity_level (0 without FLOPs)
  double intensity_after = 0;
  double pct_of_roof_before = 0;
  double pct_of_roof_after = 0;
  double pct_of_roof_change = 0; ///< after - before, in percentage points
  std::string bound_before;      ///< kernel_placement::bound ("dram", "fp32", ...)
  std::string bound_after;
  bool matched() const { return in_before && in_after; }
};

/// Two runs side by side.
struct compare_result {
  run_context before_context;
  run_context after_context;
  std::vector<kernel_change> kernels; ///< `before` order, then kernels only in `after`
  std::vector<std::string> notes;     ///< caveats: different devices, ceilings or origins
};

/// Matches the kernels of two runs by name and computes the change in time, intensity and
/// percent of roof (each run placed under its own ceilings).
compare_result compare_runs(const run& before, const run& after);

/// The comparison as a table (id "compare").
table compare_table(const compare_result& c);

/// Prints a comparison: in Markdown a heading, where each run comes from and the notes, then the
/// table; in CSV and JSON the table only.
void print_compare_report(const compare_result& c, output_format format, std::ostream& out,
                          const std::string& before_name = {}, const std::string& after_name = {});

} // namespace roofkit

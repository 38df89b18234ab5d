#pragma once
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "roofkit/printer.hpp"
#include "roofkit/roofline.hpp"
#include "roofkit/run.hpp"

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

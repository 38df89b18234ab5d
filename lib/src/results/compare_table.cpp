#include <cmath>
#include <ostream>
#include <string>

#include <fmt/format.h>

#include "roofkit/results.hpp"

namespace roofkit {

namespace {

cell when(bool present, double v) {
  return present && std::isfinite(v) ? cell(v) : cell(std::monostate{});
}

std::string presence(const kernel_change& ch) {
  if (ch.matched())
    return "both";
  return ch.in_before ? "only before" : "only after";
}

} // namespace

table compare_table(const compare_result& c) {
  table t;
  t.id = "compare";
  t.title = "Before -> after";
  t.columns = {{"name", "Kernel"},
               {"in", "In"},
               {"time_before_us", "Time before", "us", 2},
               {"time_after_us", "Time after", "us", 2},
               {"speedup", "Speedup", "x", 2},
               {"time_change_pct", "Time change", "%", 1},
               {"intensity_level", "AI level"},
               {"intensity_before", "AI before", "FLOP/B", 2},
               {"intensity_after", "AI after", "FLOP/B", 2},
               {"pct_of_roof_before", "Of roof before", "%", 1},
               {"pct_of_roof_after", "Of roof after", "%", 1},
               {"pct_of_roof_change", "Of roof change", "points", 1},
               {"bound_before", "Bound before"},
               {"bound_after", "Bound after"}};
  for (const auto& ch : c.kernels) {
    const bool both = ch.matched();
    const bool ai = ch.intensity_level.has_value();
    t.rows.push_back({ch.name, presence(ch), positive_or_empty(ch.time_before_s, 1e6),
                      positive_or_empty(ch.time_after_s, 1e6), positive_or_empty(ch.speedup),
                      when(both && ch.speedup > 0, ch.time_change_pct),
                      ai ? cell(to_string(*ch.intensity_level)) : cell(std::monostate{}),
                      when(ai, ch.intensity_before), when(ai, ch.intensity_after),
                      when(ch.in_before && ch.bound_before != "unknown", ch.pct_of_roof_before),
                      when(ch.in_after && ch.bound_after != "unknown", ch.pct_of_roof_after),
                      when(both && ch.bound_before != "unknown" && ch.bound_after != "unknown",
                           ch.pct_of_roof_change),
                      ch.in_before ? cell(ch.bound_before) : cell(std::monostate{}),
                      ch.in_after ? cell(ch.bound_after) : cell(std::monostate{})});
    t.highlight.push_back(both && ch.speedup > 0 && ch.speedup < 1);
  }
  t.notes.push_back("Speedup = time before / time after (> 1 is faster); rows in bold got "
                    "slower. AI: arithmetic intensity at the level named.");
  for (const auto& n : c.notes)
    t.notes.push_back("Note: " + n + ".");
  return t;
}

void print_compare_report(const compare_result& c, output_format format, std::ostream& out,
                          const std::string& before_name, const std::string& after_name) {
  if (format == output_format::markdown) {
    run before;
    before.context = c.before_context;
    run after;
    after.context = c.after_context;
    out << "# roofkit compare\n\n";
    out << "- Before" << (before_name.empty() ? "" : " (" + before_name + ")") << ": "
        << provenance_line(before) << ".\n";
    out << "- After" << (after_name.empty() ? "" : " (" + after_name + ")") << ": "
        << provenance_line(after) << ".\n\n";
  }
  auto p = make_printer(format, out);
  p->print(compare_table(c));
  p->finish();
}

} // namespace roofkit

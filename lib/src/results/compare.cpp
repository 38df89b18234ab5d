#include <cmath>
#include <map>
#include <string>

#include <fmt/format.h>

#include "roofkit/results.hpp"

namespace roofkit {

namespace {

bool positive(double v) { return std::isfinite(v) && v > 0; }

void fill_change(kernel_change& ch) {
  ch.time_before_s = ch.in_before ? ch.before.time_s : 0;
  ch.time_after_s = ch.in_after ? ch.after.time_s : 0;
  ch.pct_of_roof_before = ch.in_before ? ch.before.pct_of_roof : 0;
  ch.pct_of_roof_after = ch.in_after ? ch.after.pct_of_roof : 0;
  ch.bound_before = ch.in_before ? ch.before.bound : "";
  ch.bound_after = ch.in_after ? ch.after.bound : "";
  if (!ch.matched())
    return;
  if (positive(ch.time_before_s) && positive(ch.time_after_s)) {
    ch.speedup = ch.time_before_s / ch.time_after_s;
    ch.time_change_pct = 100.0 * (ch.time_after_s - ch.time_before_s) / ch.time_before_s;
  }
  ch.pct_of_roof_change = ch.pct_of_roof_after - ch.pct_of_roof_before;
  if (!ch.before.has_flops && !ch.after.has_flops)
    return;
  // DRAM first (the classic roofline), else the outermost level both runs have.
  for (memory_level l : {memory_level::dram, memory_level::l2, memory_level::l1}) {
    const level_point* b = find_level(ch.before, l);
    const level_point* a = find_level(ch.after, l);
    if (b && a) {
      ch.intensity_level = l;
      ch.intensity_before = b->intensity;
      ch.intensity_after = a->intensity;
      return;
    }
  }
}

bool same_ceilings(const run& a, const run& b) {
  for (precision p : all_precisions) {
    const ceiling* x = find_compute_ceiling(a.ceilings, p);
    const ceiling* y = find_compute_ceiling(b.ceilings, p);
    if ((x == nullptr) != (y == nullptr) || (x && y && x->value != y->value))
      return false;
  }
  for (memory_level l : all_memory_levels) {
    const ceiling* x = find_memory_ceiling(a.ceilings, l);
    const ceiling* y = find_memory_ceiling(b.ceilings, l);
    if ((x == nullptr) != (y == nullptr) || (x && y && x->value != y->value))
      return false;
  }
  return true;
}

} // namespace

compare_result compare_runs(const run& before, const run& after) {
  compare_result result;
  result.before_context = before.context;
  result.after_context = after.context;
  const auto placed_before = analyze(before);
  const auto placed_after = analyze(after);

  // The i-th occurrence of a name in `after`, by name.
  std::map<std::string, std::vector<std::size_t>> after_by_name;
  for (std::size_t i = 0; i < after.kernels.size(); ++i)
    after_by_name[after.kernels[i].name].push_back(i);
  std::map<std::string, std::size_t> used;
  std::vector<bool> after_matched(after.kernels.size(), false);

  for (std::size_t i = 0; i < before.kernels.size(); ++i) {
    kernel_change ch;
    ch.name = before.kernels[i].name;
    ch.in_before = true;
    ch.before = placed_before[i];
    const auto& candidates = after_by_name[ch.name];
    std::size_t& n = used[ch.name];
    if (n < candidates.size()) {
      const std::size_t j = candidates[n++];
      ch.in_after = true;
      ch.after = placed_after[j];
      after_matched[j] = true;
    }
    fill_change(ch);
    result.kernels.push_back(std::move(ch));
  }
  for (std::size_t j = 0; j < after.kernels.size(); ++j) {
    if (after_matched[j])
      continue;
    kernel_change ch;
    ch.name = after.kernels[j].name;
    ch.in_after = true;
    ch.after = placed_after[j];
    fill_change(ch);
    result.kernels.push_back(std::move(ch));
  }

  if (before.context.device_name != after.context.device_name)
    result.notes.push_back(fmt::format("the runs are from different devices ('{}' and '{}')",
                                       before.context.device_name, after.context.device_name));
  if (!same_ceilings(before, after))
    result.notes.push_back("the runs have different ceilings: each kernel's % of roof is "
                           "against its own run's roofs");
  if (before.context.origin != after.context.origin)
    result.notes.push_back(fmt::format("the runs have different origins ({} and {})",
                                       to_string(before.context.origin),
                                       to_string(after.context.origin)));
  int unmatched = 0;
  for (const auto& ch : result.kernels)
    unmatched += ch.matched() ? 0 : 1;
  if (unmatched > 0)
    result.notes.push_back(fmt::format("{} kernel(s) appear in only one run", unmatched));
  return result;
}

} // namespace roofkit

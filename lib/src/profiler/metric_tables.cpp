// Tables of the metric sets and of their metrics resolved for a chip.
#include <fmt/format.h>

#include "roofkit/profiler.hpp"

// GCC 12 reports a false "maybe uninitialized" for the std::variant cells of these rows (GCC bug
// 105593 family), depending on what else the unity build inlines.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace roofkit {

namespace {

std::string what_it_feeds(const metric_spec& m) {
  switch (m.role) {
  case metric_role::flops:
    return to_string(m.prec);
  case metric_role::bytes:
    return to_string(m.level);
  default:
    return "";
  }
}

const metric_set_def& definition(const std::string& name) {
  for (const auto& s : metric_sets())
    if (s.name == name)
      return s;
  return find_metric_set(name);
}

} // namespace

table metric_sets_table() {
  table t;
  t.id = "sets";
  t.title = "Metric sets";
  t.columns = {{"set", "Set"},
               {"metrics", "Metrics"},
               {"budget", "Pass budget"},
               {"description", "Description"}};
  for (const auto& s : metric_sets())
    t.rows.push_back({s.name, static_cast<std::int64_t>(s.metrics.size()),
                      s.pass_budget > 0 ? cell{static_cast<std::int64_t>(s.pass_budget)} : cell{},
                      s.description});
  t.notes.push_back("Pass counts depend on the chip (e.g. GH100).");
  return t;
}

std::vector<resolved_set> resolve_offline(const std::string& chip,
                                          const std::optional<std::string>& set) {
  cupti_catalog catalog(chip);
  std::vector<resolved_set> out;
  auto add = [&](const metric_set_def& def) {
    out.push_back(resolve_metric_set(def, catalog));
    lay_out_cold_passes(out.back(), catalog); // as a profiling session does
  };
  if (set)
    add(find_metric_set(*set));
  else
    for (const auto& s : metric_sets())
      add(s);
  return out;
}

std::vector<table> metric_tables(const std::vector<resolved_set>& sets) {
  table summary;
  summary.id = "sets";
  summary.title = sets.empty() ? "Metric sets" : "Metric sets on " + sets.front().chip;
  summary.columns = {{"set", "Set"},
                     {"chip", "Chip"},
                     {"passes", "Passes"},
                     {"flushed_passes", "Flushed passes"},
                     {"collected", "Collected"},
                     {"dropped", "Dropped"},
                     {"description", "Description"}};
  summary.notes.push_back("Flushed passes: those that start from an emptied L2 under cache control "
                          "all with the kernel driver's flush, the passes of the counters that "
                          "depend on the cache state; the sweep runs before every pass.");
  table metrics;
  metrics.id = "metrics";
  metrics.title = "Metrics";
  metrics.columns = {{"set", "Set"},
                     {"set_passes", "Set passes"},
                     {"key", "Key"},
                     {"metric", "CUPTI metric"},
                     {"role", "Role"},
                     {"feeds", "Precision/level"},
                     {"weight", "Weight", "", 0},
                     {"collected", "Collected"},
                     {"status", "Status"},
                     {"description", "Description"},
                     {"nvidia_description", "NVIDIA description"}};
  for (const auto& s : sets) {
    const auto& def = definition(s.set);
    summary.rows.push_back({s.set, s.chip, static_cast<std::int64_t>(s.passes),
                            static_cast<std::int64_t>(s.flushed_passes()),
                            static_cast<std::int64_t>(s.metrics.size()),
                            static_cast<std::int64_t>(s.dropped.size()), def.description});
    // Rows in the set's own order, collected or not.
    for (const auto& spec : def.metrics) {
      const resolved_metric* got = s.find(spec.key);
      const dropped_metric* lost = nullptr;
      for (const auto& d : s.dropped)
        if (d.spec.key == spec.key)
          lost = &d;
      std::vector<cell> row{s.set,
                            static_cast<std::int64_t>(s.passes),
                            spec.key,
                            got ? got->name : spec.names.front(),
                            to_string(spec.role),
                            what_it_feeds(spec)};
      row.push_back(spec.role == metric_role::flops ? cell{spec.weight} : cell{});
      row.push_back(got != nullptr);
      row.push_back(got ? std::string(spec.optional ? "collected (optional)" : "collected")
                        : (lost ? to_string(lost->reason) : std::string("not on chip")));
      row.push_back(spec.description);
      row.push_back(got ? got->nvidia_description : std::string());
      metrics.rows.push_back(std::move(row));
      metrics.highlight.push_back(got == nullptr && !spec.optional);
    }
    for (const auto& w : s.warnings())
      metrics.notes.push_back("Warning: " + w + ".");
    for (const auto& n : s.notes())
      metrics.notes.push_back("Note: " + n + ".");
  }
  return {summary, metrics};
}

} // namespace roofkit

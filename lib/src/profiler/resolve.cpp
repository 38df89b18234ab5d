// Resolution of a metric set for one chip: names per chip, drops, and the pass budget.
#include <fmt/format.h>

#include "roofkit/profiler.hpp"

namespace roofkit {

std::string to_string(drop_reason r) {
  return r == drop_reason::over_budget ? "over pass budget" : "not on chip";
}

std::string to_string(metric_role r) {
  switch (r) {
  case metric_role::flops:
    return "flops";
  case metric_role::bytes:
    return "bytes";
  case metric_role::time:
    return "time";
  case metric_role::sm_cycles:
    return "sm_cycles";
  case metric_role::sm_clock:
    return "sm_clock";
  case metric_role::dram_clock:
    return "dram_clock";
  case metric_role::occupancy:
    return "occupancy";
  case metric_role::count:
    return "count";
  }
  return "unknown";
}

std::vector<std::string> resolved_set::names() const {
  std::vector<std::string> out;
  out.reserve(metrics.size());
  for (const auto& m : metrics)
    out.push_back(m.name);
  return out;
}

const resolved_metric* resolved_set::find(const std::string& key) const {
  for (const auto& m : metrics)
    if (m.spec.key == key)
      return &m;
  return nullptr;
}

std::vector<std::string> resolved_set::warnings() const {
  std::vector<std::string> out;
  for (const auto& d : dropped) {
    if (d.reason != drop_reason::not_on_chip || d.spec.optional)
      continue;
    std::string tried;
    for (const auto& n : d.spec.names)
      tried += (tried.empty() ? "" : " / ") + n;
    out.push_back(fmt::format("metric set '{}' on {}: dropped '{}' ({} is not a metric of this "
                              "chip)",
                              set, chip, d.spec.key, tried));
  }
  return out;
}

std::vector<std::string> resolved_set::notes() const {
  std::string over;
  for (const auto& d : dropped)
    if (d.reason == drop_reason::over_budget)
      over += (over.empty() ? "" : ", ") + d.spec.key;
  if (over.empty())
    return {};
  return {fmt::format("metric set '{}' on {}: left out {} to stay within {} passes; collect "
                      "them with the metric set roofline-full or tensor",
                      set, chip, over, passes)};
}

resolved_set resolve_metric_set(const metric_set_def& def, const metric_catalog& catalog) {
  resolved_set out;
  out.set = def.name;
  out.chip = catalog.chip();

  std::vector<resolved_metric> required;
  std::vector<resolved_metric> optional;
  for (const auto& spec : def.metrics) {
    const std::string* chosen = nullptr;
    bool has_unit = spec.chips.empty();
    for (const auto& prefix : spec.chips)
      has_unit = has_unit || out.chip.rfind(prefix, 0) == 0;
    const std::vector<std::string> none;
    for (const auto& name : has_unit ? spec.names : none)
      if (catalog.has(name)) {
        chosen = &name;
        break;
      }
    if (chosen == nullptr) {
      out.dropped.push_back({spec, drop_reason::not_on_chip});
      continue;
    }
    resolved_metric m{spec, *chosen, catalog.description(*chosen)};
    (spec.optional ? optional : required).push_back(std::move(m));
  }

  out.metrics = std::move(required);
  std::vector<std::string> names = out.names();
  out.passes = names.empty() ? 0 : catalog.passes(names);
  for (auto& m : optional) {
    names.push_back(m.name);
    const int with = catalog.passes(names);
    // FLOP counters may add passes up to the budget; other extras only fill the passes there are.
    const int limit =
        m.spec.role == metric_role::flops ? std::max(def.pass_budget, out.passes) : out.passes;
    if (def.pass_budget > 0 && with > limit) {
      names.pop_back();
      out.dropped.push_back({m.spec, drop_reason::over_budget});
      continue;
    }
    out.passes = with;
    out.metrics.push_back(std::move(m));
  }
  return out;
}

} // namespace roofkit

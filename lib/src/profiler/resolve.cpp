// Resolution of a metric set for one chip: names per chip, drops, and the pass budget.
#include <algorithm>
#include <array>
#include <string_view>

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

std::vector<std::vector<std::string>> resolved_set::config_groups() const {
  if (cold_names.empty())
    return {names()};
  std::vector<std::string> rest;
  for (auto& n : names())
    if (std::find(cold_names.begin(), cold_names.end(), n) == cold_names.end())
      rest.push_back(std::move(n));
  return {cold_names, rest};
}

namespace {

// Counts that a kernel makes the same whatever the caches hold when it starts: SASS-patched and
// hardware instruction counts, tensor-op counts, the requests, sectors and bytes asked of the L1,
// and shared-memory wavefronts and bank conflicts. Hits and misses are not among them.
constexpr std::array<std::string_view, 12> count_prefixes = {"sm__sass_",
                                                             "smsp__sass_",
                                                             "sm__inst_executed",
                                                             "smsp__inst_executed",
                                                             "sm__thread_inst_executed",
                                                             "smsp__thread_inst_executed",
                                                             "sm__ops_path_tensor",
                                                             "l1tex__t_bytes",
                                                             "l1tex__t_requests",
                                                             "l1tex__t_sectors",
                                                             "l1tex__data_pipe_lsu_wavefronts",
                                                             "l1tex__data_bank_conflicts"};
// Words that make a counter of those units a rate, a time or a hit count.
constexpr std::array<std::string_view, 8> timed_words = {"pct",      "per_second", "per_cycle",
                                                         "cycles",   "lookup_hit", "lookup_miss",
                                                         "hit_rate", "throughput"};

} // namespace

bool independent_of_cache_state(const std::string& cupti_name) {
  const std::string_view n = cupti_name;
  const bool count = std::any_of(count_prefixes.begin(), count_prefixes.end(),
                                 [&](std::string_view p) { return n.substr(0, p.size()) == p; });
  return count && std::none_of(timed_words.begin(), timed_words.end(), [&](std::string_view w) {
           return n.find(w) != std::string_view::npos;
         });
}

void lay_out_cold_passes(resolved_set& set, const metric_catalog& catalog) {
  std::vector<std::string> cold;
  std::vector<std::string> warm;
  for (auto& n : set.names())
    (independent_of_cache_state(n) ? warm : cold).push_back(std::move(n));
  if (cold.empty()) {
    set.cold_passes = 0;
    return;
  }
  if (warm.empty())
    return;
  // The counts that fit into the cold passes go there; the rest make the warm passes.
  const int cold_alone = catalog.passes(cold);
  std::vector<std::string> rest;
  for (auto& n : warm) {
    cold.push_back(n);
    if (catalog.passes(cold) > cold_alone) {
      cold.pop_back();
      rest.push_back(std::move(n));
    }
  }
  if (rest.empty() || cold_alone + catalog.passes(rest) > set.passes)
    return;
  set.cold_names = std::move(cold);
  set.cold_passes = cold_alone;
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

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "roofkit/core.hpp"

#include "internal/coalescing_counters.hpp"
#include "roofkit/bench.hpp"
#include "roofkit/results.hpp"

namespace roofkit {

namespace {

const kernel_result* find_ok(const run& r, const std::string& name) {
  for (const auto& k : r.kernels)
    if (k.name == name)
      return k.status == "ok" && k.time.median_s > 0 ? &k : nullptr;
  return nullptr;
}

std::optional<double> effective_bandwidth(const kernel_result& k) {
  if (!k.minimal_bytes || k.time.median_s <= 0)
    return std::nullopt;
  return *k.minimal_bytes / k.time.median_s;
}

std::optional<double> counter(const kernel_result& k, const std::string& name) {
  const auto it = k.counters.find(name);
  if (it == k.counters.end())
    return std::nullopt;
  return it->second;
}

std::optional<double> dram_roof(const run& r) {
  std::optional<double> theoretical, measured;
  for (const auto& c : r.ceilings)
    if (c.is_memory && c.level == memory_level::dram)
      (c.source == ceiling_source::measured ? measured : theoretical) = c.value;
  return measured ? measured : theoretical;
}

std::string describe(const kernel_result& k) {
  std::string s = fmt::format("{}: {:.1f} us", k.name, k.time.median_s * 1e6);
  if (auto bw = effective_bandwidth(k))
    s += fmt::format(", {:.0f} GB/s effective", *bw / 1e9);
  if (auto it = k.bytes.find(memory_level::dram); it != k.bytes.end() &&
                                                  k.source == work_source::counters &&
                                                  k.minimal_bytes && *k.minimal_bytes > 0)
    s += fmt::format(", DRAM {:.2f}x minimal", it->second / *k.minimal_bytes);
  auto sectors = counter(k, bench_counters::ld_sectors);
  auto requests = counter(k, bench_counters::ld_requests);
  if (sectors && requests && *requests > 0)
    s += fmt::format(", {:.1f} sectors/load", *sectors / *requests);
  if (k.occupancy_achieved)
    s += fmt::format(", occupancy {:.0f}%", *k.occupancy_achieved * 100);
  return s;
}

} // namespace

std::string format_claim_value(claim_metric m, double v) {
  switch (m) {
  case claim_metric::speedup:
  case claim_metric::counter_ratio:
    return fmt::format("{:.2f}x", v);
  case claim_metric::bandwidth_ratio:
    return fmt::format("{:.2f}x ({:.0f}%)", v, v * 100);
  case claim_metric::bandwidth_gbs:
    return fmt::format("{:.0f} GB/s", v);
  case claim_metric::fraction_of_dram_roof:
  case claim_metric::occupancy:
    return fmt::format("{:.0f}%", v * 100);
  case claim_metric::counter_quotient:
    return fmt::format("{:.3g}", v);
  }
  return fmt::format("{}", v);
}

std::string claim_metric_definition(claim_metric m) {
  switch (m) {
  case claim_metric::speedup:
    return "median time of the baseline / median time of the subject";
  case claim_metric::bandwidth_ratio:
    return "effective bandwidth (minimal bytes / median time) of the subject / of the baseline";
  case claim_metric::bandwidth_gbs:
    return "effective bandwidth of the subject, 1e9 bytes/s";
  case claim_metric::fraction_of_dram_roof:
    return "effective bandwidth of the subject / the run's DRAM roof (measured if present)";
  case claim_metric::counter_ratio:
    return "the named counter of the subject / of the baseline";
  case claim_metric::counter_quotient:
    return "first counter / second counter, for the subject";
  case claim_metric::occupancy:
    return "theoretical occupancy of the subject (active warps / maximum warps per SM)";
  }
  return "";
}

std::vector<claim_outcome> evaluate_claims(const run& r) {
  std::vector<claim_outcome> outcomes;
  for (const seed_claim& c : seed_claims()) {
    claim_outcome o;
    o.claim = &c;
    const kernel_result* s = find_ok(r, c.subject);
    const kernel_result* b = c.baseline.empty() ? nullptr : find_ok(r, c.baseline);
    auto pair = [&](std::optional<double> sv, std::optional<double> bv) -> std::optional<double> {
      o.subject_value = sv;
      o.baseline_value = bv;
      if (!sv || !bv || *bv == 0)
        return std::nullopt;
      return *sv / *bv;
    };
    if (s && (c.baseline.empty() || b)) {
      switch (c.metric) {
      case claim_metric::speedup:
        o.value = pair(b->time.median_s, s->time.median_s);
        break;
      case claim_metric::bandwidth_ratio:
        o.value = pair(effective_bandwidth(*s), effective_bandwidth(*b));
        break;
      case claim_metric::bandwidth_gbs:
        if (auto bw = effective_bandwidth(*s))
          o.value = *bw / 1e9;
        break;
      case claim_metric::fraction_of_dram_roof:
        if (auto bw = effective_bandwidth(*s); bw && dram_roof(r))
          o.value = *bw / *dram_roof(r);
        break;
      case claim_metric::counter_ratio:
        if (!c.counters.empty())
          o.value = pair(counter(*s, c.counters[0]), counter(*b, c.counters[0]));
        break;
      case claim_metric::counter_quotient:
        if (c.counters.size() >= 2) {
          auto num = counter(*s, c.counters[0]), den = counter(*s, c.counters[1]);
          if (num && den && *den > 0)
            o.value = *num / *den;
          if (b) {
            auto bn = counter(*b, c.counters[0]), bd = counter(*b, c.counters[1]);
            if (bn && bd && *bd > 0)
              o.baseline_value = *bn / *bd;
          }
        }
        break;
      case claim_metric::occupancy:
        o.value = s->occupancy_theoretical;
        if (b)
          o.baseline_value = b->occupancy_theoretical;
        break;
      }
    }
    if (!o.value || !std::isfinite(*o.value)) {
      o.value.reset();
      o.verdict = "not measured";
      if (!s)
        o.evidence = fmt::format("{} did not run or failed", c.subject);
      else if (!c.baseline.empty() && !b)
        o.evidence = fmt::format("{} did not run or failed", c.baseline);
      else if (c.metric == claim_metric::counter_quotient && c.counters.size() >= 2 &&
               counter(*s, c.counters[1]) && *counter(*s, c.counters[1]) == 0)
        o.evidence = fmt::format("{} = 0 for {}: the quotient is undefined (e.g. no branch "
                                 "instruction: the compiler predicated the code)",
                                 c.counters[1], c.subject);
      else
        o.evidence = "the counters it needs were not collected (analytical run?)";
    } else {
      const bool holds = c.holds_if_at_least ? *o.value >= c.threshold : *o.value <= c.threshold;
      o.verdict = holds ? "holds" : "does not hold";
      o.evidence = describe(*s) + (b ? "; " + describe(*b) : "");
    }
    outcomes.push_back(std::move(o));
  }
  return outcomes;
}

table claims_table(const std::vector<claim_outcome>& outcomes) {
  table t;
  t.id = "claims";
  t.title = "Seed claims";
  t.columns = {{"id", "Claim id"},      {"claim", "Claim"},     {"seed_figure", "Seed figure"},
               {"value", "Ours"},       {"verdict", "Verdict"}, {"threshold", "Holds if"},
               {"evidence", "Evidence"}};
  for (const auto& o : outcomes) {
    const seed_claim& c = *o.claim;
    t.rows.push_back(
        {c.id, c.text, c.seed_figure,
         o.value ? format_claim_value(c.metric, *o.value) : std::string("-"), o.verdict,
         fmt::format("{} {}",
                     c.holds_if_at_least ? ">=" : "<=", format_claim_value(c.metric, c.threshold)),
         o.evidence});
    t.highlight.push_back(o.verdict == "does not hold");
  }
  return t;
}

std::map<std::string, std::string> load_claim_notes(const std::string& path) {
  const std::string text = read_text_file(path);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw usage_error(fmt::format("claim notes '{}': malformed JSON ({})", path, e.what()));
  }
  if (!j.is_object())
    throw usage_error(
        fmt::format("claim notes '{}': expected an object of claim id -> text", path));
  std::map<std::string, std::string> notes;
  for (const auto& [id, v] : j.items()) {
    if (!find_claim(id))
      throw usage_error(fmt::format("claim notes '{}': unknown claim id '{}'", path, id));
    if (!v.is_string())
      throw usage_error(
          fmt::format("claim notes '{}': the note of '{}' is not a string", path, id));
    notes[id] = v.get<std::string>();
  }
  return notes;
}

} // namespace roofkit

// Cliff detection: changes of a measured series beyond noise, steps of the predicted occupancy,
// and the pairing of the two with a cause for each.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofkit/cliff.hpp"

namespace roofkit {

namespace {

bool measured(const series_point& p) { return std::isfinite(p.value) && p.value > 0; }

double rel_change(double before, double after) { return after / before - 1; }

std::string mb(double bytes) {
  if (bytes >= 1 << 20)
    return fmt::format("{:.3g} MiB", bytes / (1 << 20));
  return fmt::format("{:.3g} KiB", bytes / 1024);
}

} // namespace

std::string to_string(cliff_verdict v) {
  switch (v) {
  case cliff_verdict::agree:
    return "agree";
  case cliff_verdict::opposite:
    return "opposite";
  case cliff_verdict::predicted_only:
    return "predicted only";
  case cliff_verdict::measured_only:
    return "measured only";
  }
  return "?";
}

double relative_spread(std::vector<double> s) {
  if (s.size() < 2)
    return 0;
  std::sort(s.begin(), s.end());
  auto q = [&](double f) {
    const double pos = f * double(s.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    const auto hi = std::min(lo + 1, s.size() - 1);
    return s[lo] + (s[hi] - s[lo]) * (pos - double(lo));
  };
  const double median = q(0.5);
  return median > 0 ? (q(0.9) - q(0.1)) / median : 0;
}

std::vector<measured_change> find_changes(const std::vector<series_point>& s,
                                          const cliff_options& o) {
  std::vector<measured_change> out;
  std::size_t level = s.size();
  std::vector<std::size_t> valid; // measured points since the level, the level first
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (!measured(s[i]))
      continue;
    if (level == s.size()) {
      level = i;
      valid = {i};
      continue;
    }
    valid.push_back(i);
    const double rel = rel_change(s[level].value, s[i].value);
    const double noise = o.spread_factor * std::max(s[level].spread, s[i].spread);
    if (std::fabs(rel) <= std::max(o.threshold, noise))
      continue;
    // Where it happened: the largest consecutive jump in the same direction since the level.
    std::size_t best = 1;
    double best_jump = 0;
    for (std::size_t k = 1; k < valid.size(); ++k) {
      const double jump = rel_change(s[valid[k - 1]].value, s[valid[k]].value);
      if ((jump < 0) == (rel < 0) && std::fabs(jump) > best_jump) {
        best_jump = std::fabs(jump);
        best = k;
      }
    }
    measured_change c;
    if (best_jump > std::max(o.threshold, noise)) { // a step between two neighbours
      c.from = valid[best - 1];
      c.at = valid[best];
    } else { // a drift: the whole stretch since the level
      c.from = level;
      c.at = i;
    }
    c.before = s[c.from].value;
    c.after = s[c.at].value;
    c.relative = rel_change(c.before, c.after);
    out.push_back(c);
    level = i;
    valid = {i};
  }
  return out;
}

std::vector<predicted_step> find_steps(const std::vector<predicted_point>& points) {
  std::vector<predicted_step> out;
  for (std::size_t i = 1; i < points.size(); ++i) {
    const auto& a = points[i - 1];
    const auto& b = points[i];
    if (std::fabs(a.occupancy - b.occupancy) < 1e-9)
      continue;
    predicted_step st;
    st.from = i - 1;
    st.at = i;
    st.before = a.occupancy;
    st.after = b.occupancy;
    st.blocks_before = a.active_blocks;
    st.blocks_after = b.active_blocks;
    st.cause = b.occupancy < a.occupancy ? b.limiter : a.limiter;
    out.push_back(st);
  }
  return out;
}

std::vector<cliff_event> match_cliffs(const std::vector<predicted_step>& steps,
                                      const std::vector<measured_change>& changes) {
  // Each change pairs with one step inside its span: the nearest to its end in the same
  // direction, else the nearest in the other direction.
  std::vector<int> step_of_change(changes.size(), -1);
  std::vector<bool> step_used(steps.size(), false);
  for (std::size_t j = 0; j < changes.size(); ++j) {
    const auto& c = changes[j];
    int best = -1;
    bool best_same = false;
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const auto& st = steps[i];
      if (step_used[i] || !(c.from < st.at && st.at <= c.at))
        continue;
      const bool same = (st.after < st.before) == c.drop();
      if (best < 0 || (same && !best_same) ||
          (same == best_same && st.at > steps[std::size_t(best)].at)) {
        best = int(i);
        best_same = same;
      }
    }
    if (best >= 0) {
      step_of_change[j] = best;
      step_used[std::size_t(best)] = true;
    }
  }
  std::vector<cliff_event> out;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    cliff_event e;
    e.at = steps[i].at;
    e.step = steps[i];
    e.cause = steps[i].cause;
    e.verdict = cliff_verdict::predicted_only;
    for (std::size_t j = 0; j < changes.size(); ++j)
      if (step_of_change[j] == int(i)) {
        e.change = changes[j];
        const bool step_down = steps[i].after < steps[i].before;
        e.verdict = step_down == changes[j].drop() ? cliff_verdict::agree : cliff_verdict::opposite;
      }
    out.push_back(e);
  }
  for (std::size_t j = 0; j < changes.size(); ++j) {
    if (step_of_change[j] >= 0)
      continue;
    cliff_event e;
    e.at = changes[j].at;
    e.change = changes[j];
    e.verdict = cliff_verdict::measured_only;
    out.push_back(e);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const cliff_event& a, const cliff_event& b) { return a.at < b.at; });
  return out;
}

std::string explain_change(const cliff_result& r, const measured_change& c) {
  if (c.from >= r.points.size() || c.at >= r.points.size())
    return "not explained by the recorded data";
  const auto& a = r.points[c.from];
  const auto& b = r.points[c.at];
  std::vector<std::string> why;
  if (a.local_bytes != b.local_bytes || a.spill_stores != b.spill_stores) {
    if (a.spill_stores && b.spill_stores)
      why.push_back(fmt::format("register spills: {} -> {} bytes of spill stores per thread",
                                *a.spill_stores, *b.spill_stores));
    else
      why.push_back(fmt::format("local memory (spills) {} -> {} bytes per thread", a.local_bytes,
                                b.local_bytes));
  }
  if (a.registers != b.registers &&
      std::fabs(a.occupancy_theoretical - b.occupancy_theoretical) < 1e-9)
    why.push_back(fmt::format("registers {} -> {} (same occupancy: different code)", a.registers,
                              b.registers));
  auto crosses = [&](double cap) {
    const double lo = std::min(a.working_set_bytes, b.working_set_bytes);
    const double hi = std::max(a.working_set_bytes, b.working_set_bytes);
    return cap > 0 && lo <= cap && hi > cap;
  };
  if (crosses(r.l1_bytes))
    why.push_back(fmt::format("working set {} -> {} crosses the L1 ({} per SM)",
                              mb(a.working_set_bytes), mb(b.working_set_bytes), mb(r.l1_bytes)));
  if (crosses(r.l2_bytes))
    why.push_back(fmt::format("working set {} -> {} crosses the L2 ({})", mb(a.working_set_bytes),
                              mb(b.working_set_bytes), mb(r.l2_bytes)));
  if (a.time_median_s > 0 && a.time_median_s < 10e-6)
    why.push_back(fmt::format("launch overhead and an underfilled GPU dominate ({:.1f} us per "
                              "launch, {:.2f} waves)",
                              a.time_median_s * 1e6, a.waves));
  else if (a.waves > 0 && b.waves > 0 && std::ceil(a.waves - 1e-9) != std::ceil(b.waves - 1e-9) &&
           std::max(a.waves, b.waves) < 8)
    why.push_back(
        fmt::format("waves {:.2f} -> {:.2f} (a partly filled last wave)", a.waves, b.waves));
  if (a.occupancy_achieved && b.occupancy_achieved && *a.occupancy_achieved > 0 &&
      std::fabs(*b.occupancy_achieved / *a.occupancy_achieved - 1) > 0.1)
    why.push_back(fmt::format("achieved occupancy {:.0f}% -> {:.0f}% with no predicted step",
                              100 * *a.occupancy_achieved, 100 * *b.occupancy_achieved));
  if (why.empty())
    return "not explained by the recorded data";
  std::string s;
  for (const auto& w : why)
    s += (s.empty() ? "" : "; ") + w;
  return s;
}

void analyze_cliffs(cliff_result& r) {
  std::vector<series_point> series;
  std::vector<predicted_point> predicted;
  // Only points that ran take part; indices map back to r.points.
  std::vector<std::size_t> index;
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    const auto& p = r.points[i];
    if (p.status != "ok")
      continue;
    index.push_back(i);
    series.push_back({double(p.value), p.rate, p.spread});
    predicted.push_back({p.occupancy_theoretical, p.active_blocks, p.limiter});
  }
  r.changes = find_changes(series, r.options);
  r.steps = find_steps(predicted);
  for (auto& c : r.changes) {
    c.from = index[c.from];
    c.at = index[c.at];
  }
  for (auto& s : r.steps) {
    s.from = index[s.from];
    s.at = index[s.at];
  }
  r.events = match_cliffs(r.steps, r.changes);
  for (auto& e : r.events) {
    if (e.verdict == cliff_verdict::measured_only) {
      e.cause = explain_change(r, *e.change);
    } else if (e.verdict == cliff_verdict::predicted_only) {
      const auto& a = r.points[e.step->from];
      const auto& b = r.points[e.step->at];
      std::string detail;
      if (a.rate > 0 && b.rate > 0)
        detail = fmt::format("rate {:+.1f}% (within the {:.0f}% threshold or the spread)",
                             100 * rel_change(a.rate, b.rate), 100 * r.options.threshold);
      if (a.occupancy_achieved && b.occupancy_achieved)
        detail += fmt::format("{}achieved occupancy {:.0f}% -> {:.0f}%", detail.empty() ? "" : "; ",
                              100 * *a.occupancy_achieved, 100 * *b.occupancy_achieved);
      e.cause = e.step->cause + (detail.empty() ? "" : ": " + detail);
    }
  }
}

} // namespace roofkit

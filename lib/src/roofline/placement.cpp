#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "roofkit/roofline.hpp"

namespace roofkit {

namespace {

bool positive(double v) { return std::isfinite(v) && v > 0; }

template <class Match>
const ceiling* find_ceiling(const std::vector<ceiling>& ceilings, Match match) {
  const ceiling* best = nullptr;
  for (const auto& c : ceilings) {
    if (!match(c) || !positive(c.value))
      continue;
    if (best == nullptr ||
        (best->source != ceiling_source::measured && c.source == ceiling_source::measured))
      best = &c;
  }
  return best;
}

// Memory levels from the outermost in: on a tie the outer level is named as the bound.
constexpr memory_level binding_order[] = {memory_level::dram, memory_level::l2, memory_level::l1};

std::string join_labels(const std::map<precision, double>& flops) {
  std::string text;
  for (const auto& [p, f] : flops)
    if (positive(f))
      text += (text.empty() ? "" : " + ") + label(p);
  return text;
}

} // namespace

const ceiling* find_compute_ceiling(const std::vector<ceiling>& ceilings, precision p) {
  return find_ceiling(ceilings, [p](const ceiling& c) { return !c.is_memory && c.prec == p; });
}

const ceiling* find_memory_ceiling(const std::vector<ceiling>& ceilings, memory_level l) {
  return find_ceiling(ceilings, [l](const ceiling& c) { return c.is_memory && c.level == l; });
}

double combined_compute_roof(const std::map<precision, double>& flops,
                             const std::vector<ceiling>& ceilings) {
  double total = 0;
  double seconds = 0;
  for (const auto& [p, f] : flops) {
    if (!positive(f))
      continue;
    const ceiling* c = find_compute_ceiling(ceilings, p);
    if (c == nullptr)
      return 0;
    total += f;
    seconds += f / c->value;
  }
  return seconds > 0 ? total / seconds : 0;
}

kernel_result analytical_kernel(std::string name, std::map<precision, double> flops,
                                std::map<memory_level, double> bytes, double time_s) {
  kernel_result k;
  k.name = std::move(name);
  double total = 0;
  for (const auto& [p, f] : flops)
    total += positive(f) ? f : 0;
  k.algorithmic_flops = total;
  if (auto it = bytes.find(memory_level::dram); it != bytes.end())
    k.minimal_bytes = it->second;
  k.flops = std::move(flops);
  k.bytes = std::move(bytes);
  k.time = {time_s, time_s, time_s, 1};
  k.source = work_source::analytical;
  return k;
}

std::vector<ceiling> ceilings_at_clock(const std::vector<ceiling>& ceilings, double sm_clock_mhz) {
  std::vector<ceiling> out = ceilings;
  if (!positive(sm_clock_mhz))
    return out;
  for (auto& c : out) {
    if ((c.is_memory && c.level == memory_level::dram) || !positive(c.sm_clock_mhz))
      continue;
    c.value *= sm_clock_mhz / c.sm_clock_mhz;
    c.sm_clock_mhz = sm_clock_mhz;
  }
  return out;
}

namespace {

// The FLOPs per precision against their roofs: the compute lower bound, the dominant precision
// and the combined compute roof.
void place_compute(const kernel_result& k, const std::vector<ceiling>& ceilings,
                   kernel_placement& pl) {
  int precisions_used = 0;
  bool compute_known = true;
  double best_share = -1;
  double largest_flops = -1;
  std::optional<precision> most_flops;
  for (const auto& [p, f] : k.flops) {
    if (!positive(f))
      continue;
    ++precisions_used;
    pl.total_flops += f;
    if (f > largest_flops) {
      largest_flops = f;
      most_flops = p;
    }
    const ceiling* c = find_compute_ceiling(ceilings, p);
    if (c == nullptr) {
      compute_known = false;
      pl.notes.push_back(fmt::format("no {} ceiling: compute roof unknown", label(p)));
      continue;
    }
    const double share = f / c->value;
    pl.compute_lower_bound_s += share;
    if (share > best_share) {
      best_share = share;
      pl.dominant_precision = p;
    }
  }
  if (!compute_known)
    pl.dominant_precision = most_flops;
  pl.has_flops = pl.total_flops > 0;
  pl.mixed_precision = precisions_used > 1;
  if (pl.has_flops && compute_known && pl.compute_lower_bound_s > 0)
    pl.compute_roof = pl.total_flops / pl.compute_lower_bound_s;
  else
    pl.compute_lower_bound_s = 0;
}

// One point per memory level with bytes: intensity, bandwidth and the roofs there.
void place_levels(const kernel_result& k, const std::vector<ceiling>& ceilings, bool timed,
                  kernel_placement& pl) {
  for (memory_level l : all_memory_levels) {
    auto it = k.bytes.find(l);
    if (it == k.bytes.end() || !positive(it->second))
      continue;
    level_point lp;
    lp.level = l;
    lp.bytes = it->second;
    lp.intensity = pl.has_flops ? pl.total_flops / lp.bytes : 0;
    lp.achieved_bandwidth = timed ? lp.bytes / pl.time_s : 0;
    if (const ceiling* c = find_memory_ceiling(ceilings, l)) {
      lp.has_ceiling = true;
      lp.bandwidth_roof = c->value;
      lp.utilisation = lp.achieved_bandwidth / c->value;
      lp.lower_bound_s = lp.bytes / c->value;
      if (pl.compute_roof > 0)
        lp.ridge_intensity = pl.compute_roof / c->value;
      if (pl.has_flops) {
        const double memory_roof = lp.intensity * c->value;
        lp.attainable_flops =
            pl.compute_roof > 0 ? std::min(pl.compute_roof, memory_roof) : memory_roof;
      }
    } else {
      pl.notes.push_back(fmt::format("no {} bandwidth ceiling", label(l)));
      lp.attainable_flops = pl.compute_roof;
    }
    pl.levels.push_back(lp);
  }
}

// The binding ceiling is the one that allows the least time at its peak: the largest lower
// bound (returned, 0 when none applies). Also the ridge of the tightest memory level.
double bind(const kernel_result& k, kernel_placement& pl) {
  double binding_s = 0;
  if (pl.compute_lower_bound_s > 0 && pl.dominant_precision) {
    binding_s = pl.compute_lower_bound_s;
    pl.compute_bound = true;
    pl.bound = to_string(*pl.dominant_precision);
    pl.bound_label =
        pl.mixed_precision ? "combined " + join_labels(k.flops) : label(*pl.dominant_precision);
  }
  const level_point* tightest = nullptr;
  for (memory_level l : binding_order) {
    for (const auto& lp : pl.levels) {
      if (lp.level != l || !lp.has_ceiling)
        continue;
      if (tightest == nullptr || lp.lower_bound_s > tightest->lower_bound_s)
        tightest = &lp;
      if (lp.lower_bound_s > binding_s) {
        binding_s = lp.lower_bound_s;
        pl.compute_bound = false;
        pl.bound = to_string(l);
        pl.bound_label = label(l);
      }
    }
  }
  if (tightest != nullptr) {
    pl.ridge_level = tightest->level;
    if (pl.has_flops && tightest->ridge_intensity > 0)
      pl.ridge_distance = std::log10(tightest->intensity / tightest->ridge_intensity);
  }
  return binding_s;
}

} // namespace

kernel_placement place_kernel(const kernel_result& k, const std::vector<ceiling>& run_ceilings) {
  // Every roof is compared at the SM clock the kernel ran at (when its counters say it).
  const std::vector<ceiling> ceilings =
      ceilings_at_clock(run_ceilings, k.sm_clock_mhz.value_or(0.0));
  kernel_placement pl;
  pl.name = k.name;
  pl.roof_sm_clock_mhz = k.sm_clock_mhz.value_or(0.0);
  pl.analytical = k.source == work_source::analytical;
  pl.failed = k.status != "ok";
  pl.time_s = k.time.median_s;
  pl.bound = "unknown";
  place_compute(k, ceilings, pl);

  const bool timed = positive(pl.time_s);
  if (!timed)
    pl.notes.push_back("no kernel time: cannot place it under the roofs");
  if (timed)
    pl.achieved_flops = pl.total_flops / pl.time_s;
  place_levels(k, ceilings, timed, pl);

  // The binding ceiling's lower bound over the measured time is the percent of roof, which
  // equals achieved / attainable at that ceiling (and achieved bandwidth / roof for copies).
  const double binding_s = bind(k, pl);
  if (binding_s <= 0 || !timed) {
    pl.bound = "unknown";
    pl.bound_label.clear();
    pl.compute_bound = false;
    if (timed)
      pl.notes.push_back("no ceiling applies to this kernel's work");
    pl.attainable_flops = 0;
    return pl;
  }
  if (pl.has_flops)
    pl.attainable_flops = pl.total_flops / binding_s;
  pl.pct_of_roof = 100.0 * binding_s / pl.time_s;
  return pl;
}

std::vector<kernel_placement> analyze(const run& r) {
  std::vector<kernel_placement> out;
  out.reserve(r.kernels.size());
  for (const auto& k : r.kernels)
    out.push_back(place_kernel(k, r.ceilings));
  return out;
}

const level_point* find_level(const kernel_placement& p, memory_level l) {
  for (const auto& lp : p.levels)
    if (lp.level == l)
      return &lp;
  return nullptr;
}

} // namespace roofkit

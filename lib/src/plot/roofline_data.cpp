// The data of a roofline chart, computed from a run (no drawing here).
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <regex>
#include <set>

#include <fmt/format.h>

#include "internal/chart_parts.hpp"
#include "internal/user_regex.hpp"
#include "roofkit/core.hpp"
#include "roofkit/diagnosis.hpp"
#include "roofkit/roofline.hpp"

namespace roofkit {

namespace {

using chart_detail::format_time;
using chart_detail::rate_unit;

bool level_wanted(const chart_options& o, memory_level l) {
  return o.levels.empty() || std::find(o.levels.begin(), o.levels.end(), l) != o.levels.end();
}

// The ceiling the roofline model uses for a roof (measured preferred, see roofline.hpp) and,
// when that one is measured, the theoretical value drawn beside it for reference.
struct roof_pair {
  const ceiling* used = nullptr;
  const ceiling* reference = nullptr;
  const ceiling* primary() const { return used; }
};

template <class Match>
roof_pair with_reference(const std::vector<ceiling>& ceilings, const ceiling* used, Match match) {
  roof_pair out{used, nullptr};
  if (!used || used->source != ceiling_source::measured)
    return out;
  for (const auto& c : ceilings)
    if (match(c) && c.source == ceiling_source::theoretical && c.value > 0 &&
        std::isfinite(c.value)) {
      out.reference = &c;
      break;
    }
  return out;
}

roof_pair memory_roof(const std::vector<ceiling>& ceilings, memory_level l) {
  return with_reference(ceilings, find_memory_ceiling(ceilings, l),
                        [&](const ceiling& c) { return c.is_memory && c.level == l; });
}

roof_pair compute_roof(const std::vector<ceiling>& ceilings, precision p) {
  return with_reference(ceilings, find_compute_ceiling(ceilings, p),
                        [&](const ceiling& c) { return !c.is_memory && c.prec == p; });
}

std::string clocks_text(const ceiling& c) {
  std::vector<std::string> parts;
  if (c.sm_clock_mhz > 0)
    parts.push_back(fmt::format("SM {:.0f} MHz", c.sm_clock_mhz));
  if (c.mem_clock_mhz > 0)
    parts.push_back(fmt::format("memory {:.0f} MHz", c.mem_clock_mhz));
  if (parts.empty())
    return "clock not recorded";
  return "at " + fmt::format("{}", fmt::join(parts, ", "));
}

std::string ceiling_detail(const std::string& what, const ceiling& c, const std::string& unit) {
  std::string s = fmt::format("{} {}: {}", what, format_si(c.value, unit), to_string(c.source));
  if (!c.method.empty())
    s += " (" + c.method + ")";
  return s + ", " + clocks_text(c);
}

std::string excluded_reason_no_flops(const kernel_placement& pl) {
  std::vector<std::string> parts;
  for (auto it = pl.levels.rbegin(); it != pl.levels.rend(); ++it) {
    if (!(it->achieved_bandwidth > 0))
      continue;
    std::string part =
        fmt::format("{} {}", label(it->level), format_si(it->achieved_bandwidth, "B/s"));
    if (it->has_ceiling)
      part += fmt::format(" = {:.0f}% of its roof", 100 * it->utilisation);
    parts.push_back(part);
  }
  std::string s = "no FLOPs (data movement only)";
  if (!parts.empty())
    s += "; " + fmt::format("{}", fmt::join(parts, ", "));
  return s;
}

// The kernel's names (label, demangled, mangled) and its diagnosis, for tooltips.
std::vector<std::string> name_and_why_lines(const kernel_result& k, const std::string& label,
                                            const std::optional<kernel_diagnosis>& d) {
  std::vector<std::string> lines{label + (k.size.empty() ? "" : "  (" + k.size + ")")};
  if (k.name != label)
    lines.push_back("demangled: " + k.name);
  if (!k.mangled_name.empty())
    lines.push_back("mangled: " + k.mangled_name);
  if (d) {
    lines.push_back("why (" + d->limiter + "): " + d->verdict);
    lines.push_back("try: " + d->try_first);
  }
  return lines;
}

std::string tooltip_of(const kernel_result& k, const chart_kernel& ck,
                       const std::optional<kernel_diagnosis>& d) {
  std::vector<std::string> lines = name_and_why_lines(k, ck.label, d);
  std::string time = "time " + format_time(k.time.median_s);
  if (k.time.repetitions > 0)
    time += fmt::format(" (median of {})", k.time.repetitions);
  lines.push_back(time);
  for (const auto& [p, f] : k.flops)
    if (f > 0)
      lines.push_back(fmt::format("{}: {}", label(p),
                                  format_si(f, p == precision::tensor_int8 ? "OP" : "FLOP")));
  lines.push_back("achieved " + format_si(ck.flops_per_s, "FLOP/s"));
  for (auto it = ck.points.rbegin(); it != ck.points.rend(); ++it)
    lines.push_back(fmt::format(
        "{}: {}, {} FLOP/B, {}", label(it->level), format_si(it->bytes, "B"),
        chart_detail::format_number(it->intensity), format_si(it->bytes / ck.time_s, "B/s")));
  if (!ck.bound.empty())
    lines.push_back(fmt::format("bound: {}, {:.0f}% of the attainable {}", ck.bound, ck.pct_of_roof,
                                format_si(ck.attainable, "FLOP/s")));
  lines.push_back("work: " + to_string(k.source));
  std::string out;
  for (const auto& l : lines)
    out += (out.empty() ? "" : "\n") + l;
  return out;
}

std::string topic_of(const kernel_result& k) {
  if (!k.topic.empty())
    return k.topic;
  const auto slash = k.name.find('/');
  if (slash != std::string::npos && slash > 0)
    return k.name.substr(0, slash);
  return "other";
}

std::string occupancy_text(const std::optional<double>& theoretical,
                           const std::optional<double>& achieved) {
  if (!theoretical && !achieved)
    return "occupancy: not recorded";
  std::vector<std::string> parts;
  if (theoretical)
    parts.push_back(fmt::format("{:.0f}% theoretical", 100 * *theoretical));
  if (achieved)
    parts.push_back(fmt::format("{:.0f}% achieved", 100 * *achieved));
  return "occupancy: " + fmt::format("{}", fmt::join(parts, ", "));
}

constexpr const char* overhead_note = "launch overhead dominates its time: the rates are bounds";

std::string point_tip(const chart_kernel& ck, const chart_point& p) {
  std::vector<std::string> lines{
      ck.name, "topic: " + ck.topic, "level: " + label(p.level),
      fmt::format("intensity: {} FLOP/B", chart_detail::format_number(p.intensity)),
      fmt::format("achieved: {} ({} at this level)", format_si(ck.flops_per_s, "FLOP/s"),
                  format_si(p.bytes / ck.time_s, "B/s"))};
  if (p.pct_of_roof > 0)
    lines.push_back(fmt::format("% of roof: {:.0f}% of the {} this level allows", p.pct_of_roof,
                                format_si(p.attainable, "FLOP/s")));
  else
    lines.push_back("% of roof: unknown (no roof for this level)");
  lines.push_back(ck.bound.empty()
                      ? std::string("bound: unknown")
                      : fmt::format("bound: {} ({:.0f}% of its roof)", ck.bound, ck.pct_of_roof));
  if (!ck.compute_roof.empty())
    lines.push_back("compute roof: " + ck.compute_roof);
  lines.push_back(occupancy_text(ck.occupancy_theoretical, ck.occupancy_achieved));
  if (ck.overhead_dominated)
    lines.push_back(overhead_note);
  return fmt::format("{}", fmt::join(lines, "\n"));
}

// The clock a roof holds at: the memory clock for DRAM, the SM clock otherwise (the other one
// when the first is not recorded).
double roof_clock_mhz(const ceiling& c) {
  const bool memory_clock = c.is_memory && c.level == memory_level::dram;
  const double first = memory_clock ? c.mem_clock_mhz : c.sm_clock_mhz;
  const double second = memory_clock ? c.sm_clock_mhz : c.mem_clock_mhz;
  return first > 0 ? first : second > 0 ? second : 0;
}

std::string roof_clock_suffix(const ceiling& c) {
  const double mhz = roof_clock_mhz(c);
  return mhz > 0 ? fmt::format(" @ {:.0f} MHz", mhz) : std::string();
}

// The kernels worth a label when not every kernel gets one: the longest-running, the furthest
// below their roof and any above it (a roof that is too low).
void choose_labels(std::vector<chart_kernel>& kernels, std::size_t budget) {
  std::vector<std::size_t> order(kernels.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::set<std::size_t> chosen;
  const auto take = [&](std::size_t n) {
    for (std::size_t i : order) {
      if (n == 0 || chosen.size() >= budget)
        return;
      if (chosen.insert(i).second)
        --n;
    }
  };
  std::vector<std::size_t> above;
  for (std::size_t i = 0; i < kernels.size(); ++i)
    if (kernels[i].pct_of_roof > 100.5)
      above.push_back(i);
  order = above;
  take(budget);
  order.resize(kernels.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return kernels[a].time_s > kernels[b].time_s;
  });
  take(budget - budget * 4 / 10);
  std::vector<std::size_t> below;
  for (std::size_t i = 0; i < kernels.size(); ++i)
    if (kernels[i].pct_of_roof > 0 && !kernels[i].overhead_dominated)
      below.push_back(i);
  std::stable_sort(below.begin(), below.end(), [&](std::size_t a, std::size_t b) {
    return kernels[a].pct_of_roof < kernels[b].pct_of_roof;
  });
  order = below;
  take(budget);
  for (std::size_t i = 0; i < kernels.size(); ++i)
    kernels[i].labelled = chosen.count(i) > 0;
}

std::string origin_sentence(run_origin o) {
  switch (o) {
  case run_origin::measured:
    return "Measured: counters and timings taken on the GPU named above.";
  case run_origin::analytical:
    return "ANALYTICAL: declared FLOPs and bytes with measured or published times; no hardware "
           "counters were read.";
  case run_origin::imported:
    return "IMPORTED: built from an Nsight Compute CSV export.";
  case run_origin::recorded:
    return "RECORDED: a run replayed from a file, not measured on this machine.";
  case run_origin::timing_only:
    return "TIMING ONLY: no hardware counters could be read; kernels are timed but not placed.";
  }
  return {};
}

/// A kernel without FLOPs, drawn in the bandwidth view only: one bar per level drawn.
chart_bandwidth_kernel data_only_kernel(const kernel_result& k, const kernel_placement& pl,
                                        std::size_t i, const chart_options& options) {
  chart_bandwidth_kernel bk;
  bk.run_index = i;
  bk.name = k.name;
  bk.label = chart_detail::short_name(k.name);
  bk.topic = topic_of(k);
  bk.time_s = k.time.median_s;
  bk.overhead_dominated = k.overhead_dominated;
  bk.occupancy_achieved = k.occupancy_achieved;
  for (memory_level l : {memory_level::dram, memory_level::l2, memory_level::l1})
    for (const auto& lp : pl.levels)
      if (lp.level == l && lp.bytes > 0 && level_wanted(options, l)) {
        chart_bandwidth_kernel::bar b;
        b.level = l;
        b.bytes = lp.bytes;
        b.achieved = lp.achieved_bandwidth;
        b.roof = lp.has_ceiling ? lp.bandwidth_roof : 0;
        b.pct_of_roof = b.roof > 0 ? 100 * b.achieved / b.roof : 0;
        std::vector<std::string> lines{
            k.name, "topic: " + bk.topic, "level: " + label(l),
            fmt::format("moved {} in {}", format_si(b.bytes, "B"), format_time(bk.time_s)),
            "achieved: " + format_si(b.achieved, "B/s")};
        lines.push_back(b.roof > 0 ? fmt::format("% of roof: {:.0f}% of {}", b.pct_of_roof,
                                                 format_si(b.roof, "B/s"))
                                   : std::string("% of roof: unknown (no roof)"));
        lines.push_back(occupancy_text(k.occupancy_theoretical, k.occupancy_achieved));
        if (k.overhead_dominated)
          lines.push_back(overhead_note);
        b.tip = fmt::format("{}", fmt::join(lines, "\n"));
        bk.bars.push_back(b);
      }
  return bk;
}

/// A kernel with FLOPs, drawn at its intensity for every level drawn (no points: none of its
/// levels is drawn). Its colour and tips are set by the caller.
chart_kernel plotted_kernel(const kernel_result& k, const kernel_placement& pl, std::size_t i,
                            const chart_options& options) {
  chart_kernel ck;
  ck.run_index = i;
  ck.name = k.name;
  ck.label = chart_detail::short_name(k.name);
  ck.topic = topic_of(k);
  ck.overhead_dominated = k.overhead_dominated;
  ck.occupancy_theoretical = k.occupancy_theoretical;
  ck.occupancy_achieved = k.occupancy_achieved;
  ck.flops = pl.total_flops;
  ck.time_s = k.time.median_s;
  ck.flops_per_s = pl.achieved_flops;
  ck.dominant = pl.dominant_precision;
  if (pl.compute_roof > 0) {
    const bool ops = pl.dominant_precision == precision::tensor_int8;
    ck.compute_roof =
        (pl.mixed_precision || !pl.dominant_precision ? std::string("mixed precisions")
                                                      : label(*pl.dominant_precision)) +
        " " + format_si(pl.compute_roof, ops ? "OP/s" : "FLOP/s");
  }
  for (const auto& lp : pl.levels)
    if (level_wanted(options, lp.level)) {
      chart_point p;
      p.level = lp.level;
      p.bytes = lp.bytes;
      p.intensity = lp.intensity;
      p.attainable = lp.attainable_flops;
      p.pct_of_roof = lp.attainable_flops > 0 ? 100 * pl.achieved_flops / lp.attainable_flops : 0;
      ck.points.push_back(p);
    }
  if (ck.points.empty())
    return ck;
  std::sort(ck.points.begin(), ck.points.end(),
            [](const chart_point& a, const chart_point& b) { return a.intensity < b.intensity; });
  ck.bound = pl.bound_label;
  ck.attainable = pl.attainable_flops;
  ck.pct_of_roof = pl.pct_of_roof;
  return ck;
}

/// Topics in the order of the run; colours per topic when there are many kernels; the kernels
/// labelled (by the label pattern, or chosen when colouring by topic).
void assign_topics(roofline_chart_data& d, const run& r, const chart_options& options) {
  const auto topic_index = [&](const std::string& name) {
    for (std::size_t t = 0; t < d.topics.size(); ++t)
      if (d.topics[t].name == name)
        return t;
    d.topics.push_back({name, topic_color(d.topics.size()), 0, 0});
    return d.topics.size() - 1;
  };
  std::vector<std::size_t> kernel_topic, data_topic;
  {
    // Walk the run in order so that topics keep its order whichever list a kernel lands in.
    std::size_t ki = 0, bi = 0;
    for (std::size_t i = 0; i < r.kernels.size(); ++i) {
      if (ki < d.kernels.size() && d.kernels[ki].run_index == i) {
        kernel_topic.push_back(topic_index(d.kernels[ki].topic));
        ++d.topics[kernel_topic.back()].plotted;
        ++ki;
      } else if (bi < d.data_only.size() && d.data_only[bi].run_index == i) {
        data_topic.push_back(topic_index(d.data_only[bi].topic));
        ++d.topics[data_topic.back()].data_only;
        ++bi;
      }
    }
  }
  d.by_topic = options.colouring == chart_colouring::topic ||
               (options.colouring == chart_colouring::automatic &&
                d.kernels.size() > options.max_kernel_legend);
  for (std::size_t i = 0; i < d.kernels.size(); ++i)
    if (d.by_topic)
      d.kernels[i].color = d.topics[kernel_topic[i]].color;
  for (std::size_t i = 0; i < d.data_only.size(); ++i)
    d.data_only[i].color = d.by_topic || d.data_only.size() > options.max_kernel_legend
                               ? d.topics[data_topic[i]].color
                               : kernel_color(i);
  if (!options.label_regex.empty()) {
    const std::regex re = detail::compile_user_regex(options.label_regex, "label pattern");
    for (auto& k : d.kernels)
      k.labelled = std::regex_search(k.name, re);
  } else if (d.by_topic) {
    choose_labels(d.kernels, options.max_auto_labels);
  }
}

/// The roofs: a memory roof per level drawn, and compute roofs for the precisions the kernels use
/// (all with all_roofs); compute roofs of (nearly) equal value share one line.
void add_roofs(roofline_chart_data& d, const run& r, const chart_options& options,
               const std::set<precision>& used_precisions) {
  std::vector<std::pair<roof_pair, chart_roof>> memory, compute;
  for (memory_level l : all_memory_levels) {
    if (!level_wanted(options, l))
      continue;
    const roof_pair rp = memory_roof(r.ceilings, l);
    if (!rp.primary())
      continue;
    chart_roof roof;
    roof.is_memory = true;
    roof.level = l;
    memory.push_back({rp, roof});
  }
  std::set<precision> wanted = used_precisions;
  if (options.all_roofs || wanted.empty())
    for (precision p : all_precisions)
      wanted.insert(p);
  if (!options.all_roofs && used_precisions.empty() &&
      compute_roof(r.ceilings, precision::fp32).primary())
    wanted = {precision::fp32};
  for (precision p : all_precisions) {
    if (!wanted.count(p))
      continue;
    const roof_pair rp = compute_roof(r.ceilings, p);
    if (!rp.primary())
      continue;
    chart_roof roof;
    roof.precisions = {p};
    compute.push_back({rp, roof});
  }

  const auto finish = [&](roof_pair rp, chart_roof roof, const std::string& name,
                          const std::string& unit, const std::string& what) {
    const ceiling& c = *rp.primary();
    roof.value = c.value;
    roof.source = c.source;
    // A roof resting on a datasheet value no primary source confirms says so wherever it shows.
    const bool unconfirmed = c.method.find("[unconfirmed") != std::string::npos;
    roof.short_label = name + " " + format_si(c.value, unit) + roof_clock_suffix(c) +
                       (unconfirmed ? " (unconfirmed)" : "");
    roof.label = roof.short_label;
    roof.key = roof.short_label + " " + to_string(c.source);
    const bool has_reference = rp.reference && std::fabs(rp.reference->value / c.value - 1) > 0.005;
    if (has_reference) {
      const std::string ref_value =
          format_si(rp.reference->value, unit) + roof_clock_suffix(*rp.reference);
      roof.label = fmt::format("{} ({} theoretical)", roof.label, ref_value);
      roof.key = fmt::format("{} ({} theoretical)", roof.key, ref_value);
    }
    roof.detail = ceiling_detail(what, c, unit);
    d.roofs.push_back(roof);
    if (has_reference) {
      chart_roof ref = roof;
      ref.value = rp.reference->value;
      ref.source = ceiling_source::theoretical;
      ref.reference = true;
      ref.label.clear();
      ref.short_label.clear();
      ref.detail = ceiling_detail(what, *rp.reference, unit);
      d.roofs.push_back(ref);
    }
  };
  std::sort(memory.begin(), memory.end(), [](const auto& a, const auto& b) {
    return a.first.primary()->value < b.first.primary()->value;
  });
  for (auto& [rp, roof] : memory)
    finish(rp, roof, label(roof.level), "B/s", label(roof.level) + " bandwidth");

  // Compute roofs of (nearly) equal value share one line and one label.
  std::sort(compute.begin(), compute.end(), [](const auto& a, const auto& b) {
    return a.first.primary()->value < b.first.primary()->value;
  });
  for (std::size_t i = 0; i < compute.size();) {
    std::size_t j = i + 1;
    std::vector<precision> group = compute[i].second.precisions;
    while (j < compute.size() &&
           compute[j].first.primary()->value / compute[i].first.primary()->value < 1.005 &&
           compute[j].first.primary()->source == compute[i].first.primary()->source) {
      group.push_back(compute[j].second.precisions[0]);
      ++j;
    }
    std::string name;
    bool any_flops = false;
    for (precision p : group) {
      std::string l = label(p);
      if (!name.empty() && l.rfind("Tensor ", 0) == 0 && name.rfind("Tensor ", 0) == 0)
        l = l.substr(7);
      name += (name.empty() ? "" : " / ") + l;
      any_flops |= p != precision::tensor_int8;
    }
    chart_roof roof;
    roof.precisions = group;
    const std::string unit = any_flops ? "FLOP/s" : "OP/s";
    finish(compute[i].first, roof, name, unit, name + " peak");
    i = j;
  }
}

/// Ridge points: every primary memory roof against every primary compute roof.
void add_ridges(roofline_chart_data& d) {
  for (const auto& m : d.roofs) {
    if (!m.is_memory || m.reference)
      continue;
    for (const auto& c : d.roofs)
      if (!c.is_memory && !c.reference)
        d.ridges.push_back({m.level, c.precisions.front(), c.value / m.value, c.value});
  }
}

/// Axis ranges: every point and every ridge, with a margin; ends at 1, 2 or 5 x 10^k.
void set_axis_ranges(roofline_chart_data& d) {
  double xmin = std::numeric_limits<double>::max(), xmax = 0;
  double ymin = std::numeric_limits<double>::max(), ymax = 0;
  for (const auto& k : d.kernels) {
    for (const auto& p : k.points) {
      xmin = std::min(xmin, p.intensity);
      xmax = std::max(xmax, p.intensity);
    }
    ymin = std::min(ymin, k.flops_per_s);
    ymax = std::max(ymax, k.flops_per_s);
  }
  for (const auto& rdg : d.ridges) {
    xmin = std::min(xmin, rdg.intensity);
    xmax = std::max(xmax, rdg.intensity);
  }
  for (const auto& roof : d.roofs)
    if (!roof.is_memory)
      ymax = std::max(ymax, roof.value);
  if (xmax <= 0) {
    xmin = 0.1;
    xmax = 100;
  }
  if (ymax <= 0) {
    // Only memory roofs: show them up to the right edge.
    for (const auto& roof : d.roofs)
      ymax = std::max(ymax, roof.value * xmax);
    if (ymax <= 0)
      ymax = 1e12;
  }
  if (ymin > ymax)
    ymin = ymax / 1000;
  chart_detail::nice_log_range(xmin, xmax, 0.2, 4, d.x_min, d.x_max);
  chart_detail::nice_log_range(ymin, ymax, 0.12, 3, d.y_min, d.y_max);
  // Room above the highest roof for its label (a quarter decade).
  double top_roof = 0;
  for (const auto& roof : d.roofs)
    if (!roof.is_memory)
      top_roof = std::max(top_roof, roof.value);
  if (top_roof > 0 && std::log10(d.y_max / top_roof) < 0.25) {
    double lo = 0, hi = 0;
    chart_detail::nice_log_range(ymin, top_roof * std::pow(10.0, 0.25), 0, 3, lo, hi);
    d.y_max = std::max(d.y_max, hi);
  }
}

} // namespace

roofline_chart_data make_roofline_data(const run& r, const chart_options& options) {
  roofline_chart_data d;
  const auto& ctx = r.context;
  d.title = !options.title.empty()
                ? options.title
                : "Roofline: " +
                      (ctx.device_name.empty() ? std::string("unknown device") : ctx.device_name);

  // Kernels first: the compute roofs drawn depend on the precisions they use.
  std::set<precision> used_precisions;
  std::size_t colour = 0;
  const auto labels = kernel_labels(r, 28);
  const auto diagnoses = diagnose_run(r, analyze(r));
  for (std::size_t i = 0; i < r.kernels.size(); ++i) {
    const kernel_result& k = r.kernels[i];
    const auto exclude = [&](std::string reason) {
      d.excluded.push_back({i, labels[i], std::move(reason)});
    };
    if (k.status != "ok") {
      exclude(k.message.empty() ? k.status : k.status + ": " + k.message);
      continue;
    }
    const kernel_placement pl = place_kernel(k, r.ceilings);
    if (!(k.time.median_s > 0)) {
      exclude("no time");
      continue;
    }
    if (!pl.has_flops) {
      exclude(excluded_reason_no_flops(pl));
      d.excluded.back().no_flops = true;
      ++d.no_flops;
      chart_bandwidth_kernel bk = data_only_kernel(k, pl, i, options);
      bk.label = labels[i];
      if (!bk.bars.empty())
        d.data_only.push_back(std::move(bk));
      continue;
    }
    chart_kernel ck = plotted_kernel(k, pl, i, options);
    if (ck.points.empty()) {
      exclude("no bytes at the levels drawn");
      continue;
    }
    ck.color = kernel_color(colour++);
    ck.label = labels[i];
    ck.tooltip = tooltip_of(k, ck, diagnoses[i]);
    for (auto& p : ck.points)
      p.tip = point_tip(ck, p);
    for (const auto& [p, f] : k.flops)
      if (f > 0)
        used_precisions.insert(p);
    d.kernels.push_back(std::move(ck));
  }

  assign_topics(d, r, options);
  add_roofs(d, r, options, used_precisions);
  add_ridges(d);
  set_axis_ranges(d);

  // Footer: device and clocks, origin, versions.
  std::vector<std::string> device;
  device.push_back(ctx.device_name.empty() ? "device unknown" : ctx.device_name);
  if (ctx.cc_major > 0)
    device.push_back(fmt::format("CC {}.{}", ctx.cc_major, ctx.cc_minor));
  if (ctx.sm_count > 0)
    device.push_back(fmt::format("{} SMs", ctx.sm_count));
  std::vector<std::string> clocks;
  if (ctx.sm_clock_mhz > 0)
    clocks.push_back(fmt::format("SM {:.0f} MHz", ctx.sm_clock_mhz));
  if (ctx.mem_clock_mhz > 0)
    clocks.push_back(fmt::format("memory {:.0f} MHz", ctx.mem_clock_mhz));
  device.push_back(clocks.empty() ? std::string("clocks not recorded")
                                  : "clocks " + fmt::format("{}", fmt::join(clocks, ", ")));
  device.push_back("run date " + (ctx.date.empty() ? std::string("unknown") : ctx.date));
  d.footer.push_back(fmt::format("{}", fmt::join(device, " \u00b7 ")));

  const run_origin origin =
      options.recorded && ctx.origin == run_origin::measured ? run_origin::recorded : ctx.origin;
  d.origin_text = origin_sentence(origin);
  if (ctx.origin == run_origin::measured && !ctx.host.empty())
    d.origin_text += fmt::format(" Host: {}.", ctx.host);
  if (auto it = ctx.extra.find("note"); it != ctx.extra.end() && !it->second.empty())
    d.origin_text += " " + it->second;
  if (origin != run_origin::measured) {
    d.origin_badge = to_string(origin);
    std::transform(d.origin_badge.begin(), d.origin_badge.end(), d.origin_badge.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::toupper(ch)); });
  }
  std::string versions = fmt::format("Chart by roofkit {} ({})", tool_version(), git_revision());
  if (!ctx.tool_version.empty())
    versions += fmt::format(" \u00b7 run made by roofkit {}", ctx.tool_version);
  if (!ctx.git_revision.empty())
    versions += fmt::format(" ({})", ctx.git_revision);
  if (!ctx.host.empty())
    versions += " on " + ctx.host;
  d.footer.push_back(versions);
  return d;
}

} // namespace roofkit

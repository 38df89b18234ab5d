// The work of a sampled application profile: each launch shape's FLOPs and bytes extrapolated
// from its measured launches to all its launches, and the launches grouped by NVTX range.
#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "roofkit/app_profile.hpp"
#include "roofkit/roofline.hpp"

namespace roofkit {

namespace {

using shape_id = std::pair<std::int64_t, int>; // pid, shape

double relative_spread(const std::vector<double>& v) {
  if (v.size() < 2)
    return 0;
  const double mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return mean > 0 ? (*hi - *lo) / mean : 0;
}

// Logs before sampling: one shape per kernel, grid, block and dynamic shared memory.
std::vector<shape_record> shapes_of_launches(profile_log& log) {
  std::vector<shape_record> shapes;
  std::map<std::tuple<std::int64_t, std::string, std::array<std::uint32_t, 3>,
                      std::array<std::uint32_t, 3>, std::uint32_t>,
           int>
      ids;
  for (auto& l : log.launches) {
    const auto& c = l.kernel.launch;
    auto [it, added] =
        ids.try_emplace({l.pid, l.kernel.name, c.grid, c.block, c.dynamic_smem_bytes},
                        static_cast<int>(shapes.size()));
    if (added)
      shapes.push_back({l.pid, it->second, l.kernel.name, l.mangled_name, c.grid, c.block,
                        c.dynamic_smem_bytes});
    l.shape = it->second;
  }
  return shapes;
}

void fill_measured(shape_totals& t, const std::vector<const launch_record*>& measured) {
  std::vector<double> times;
  std::vector<double> flops;
  std::vector<double> dram;
  for (const auto* l : measured) {
    times.push_back(l->kernel.gpu_time_s.value_or(0));
    double f = 0;
    for (const auto& [p, v] : l->kernel.flops) {
      t.flops_per_launch[p] += v;
      f += v;
    }
    flops.push_back(f);
    for (const auto& [lv, v] : l->kernel.bytes)
      t.bytes_per_launch[lv] += v;
    auto d = l->kernel.bytes.find(memory_level::dram);
    dram.push_back(d == l->kernel.bytes.end() ? 0 : d->second);
  }
  const double n = static_cast<double>(measured.size());
  for (auto& [p, v] : t.flops_per_launch)
    v /= n;
  for (auto& [lv, v] : t.bytes_per_launch)
    v /= n;
  t.spread_time = relative_spread(times);
  t.spread_flops = relative_spread(flops);
  t.spread_dram = relative_spread(dram);
}

// Sums group `g` into `sum`, the times' range over the groups that have one (logs before the
// groups' times give 0).
void add_group(launch_group& sum, const launch_group& g) {
  if (g.launches > 0 && g.max_s > 0) {
    const bool first = !(sum.max_s > 0);
    sum.min_s = first ? g.min_s : std::min(sum.min_s, g.min_s);
    sum.max_s = std::max(sum.max_s, g.max_s);
  }
  sum.launches += g.launches;
  sum.inferred += g.inferred;
  sum.total_s += g.total_s;
}

double timed_spread(const launch_group& g) {
  const double mean = g.launches > 0 ? g.total_s / static_cast<double>(g.launches) : 0;
  return g.launches > 1 && g.max_s > 0 && mean > 0 ? (g.max_s - g.min_s) / mean : 0;
}

} // namespace

std::vector<shape_totals> sampled_shapes(const profile_log& log_in) {
  profile_log legacy;
  const profile_log* log = &log_in;
  std::vector<shape_record> shapes = log_in.shapes;
  if (shapes.empty()) {
    legacy.launches = log_in.launches;
    shapes = shapes_of_launches(legacy);
    log = &legacy;
  }
  std::map<shape_id, std::vector<const launch_record*>> measured;
  for (const auto& l : log->launches)
    if (l.shape >= 0 && l.kernel.status == "ok")
      measured[{l.pid, l.shape}].push_back(&l);
  std::map<shape_id, launch_group> groups;
  for (const auto& g : log_in.groups)
    add_group(groups[{g.pid, g.shape}], g);
  std::vector<shape_totals> out;
  for (const auto& s : shapes) {
    shape_totals t;
    t.shape = s;
    const shape_id id{s.pid, s.id};
    const auto m = measured.find(id);
    t.measured = m == measured.end() ? 0 : static_cast<std::int64_t>(m->second.size());
    if (const auto g = groups.find(id); g != groups.end()) {
      t.launches = g->second.launches;
      t.inferred = g->second.inferred;
      t.total_s = g->second.total_s;
      t.spread_time_timed = timed_spread(g->second);
    } else { // no group records (the process died, or a log before sampling)
      const auto inf = log_in.inferred.find(id);
      t.inferred = inf == log_in.inferred.end() ? 0 : static_cast<std::int64_t>(inf->second.size());
      t.launches = t.measured + t.inferred;
      if (m != measured.end())
        for (const auto* l : m->second)
          t.total_s += l->kernel.gpu_time_s.value_or(0);
    }
    if (m != measured.end()) {
      fill_measured(t, m->second);
      const double n = static_cast<double>(std::max(t.launches, t.measured));
      for (const auto& [p, v] : t.flops_per_launch)
        t.flops[p] = v * n;
      for (const auto& [lv, v] : t.bytes_per_launch)
        t.bytes[lv] = v * n;
    }
    out.push_back(std::move(t));
  }
  return out;
}

std::vector<range_summary> summarize_ranges(const profile_log& log) {
  if (log.groups.empty())
    return {};
  std::map<shape_id, const shape_totals*> shapes;
  const auto totals = sampled_shapes(log);
  for (const auto& t : totals)
    shapes[{t.shape.pid, t.shape.id}] = &t;
  std::map<std::pair<std::int64_t, int>, const std::vector<std::string>*> paths;
  for (const auto& r : log.ranges)
    paths[{r.pid, r.id}] = &r.path;
  std::map<std::vector<std::string>, range_summary> by_path;
  double all = 0;
  for (const auto& g : log.groups) {
    std::vector<std::string> path;
    if (auto p = paths.find({g.pid, g.range}); g.range >= 0 && p != paths.end())
      path = *p->second;
    range_summary& r = by_path[path];
    r.path = path;
    r.launches += g.launches;
    r.measured += g.measured;
    r.inferred += g.inferred;
    r.total_s += g.total_s;
    all += g.total_s;
    const auto s = shapes.find({g.pid, g.shape});
    if (s == shapes.end() || s->second->measured == 0)
      continue;
    const double n = static_cast<double>(g.launches);
    for (const auto& [p, v] : s->second->flops_per_launch)
      r.flops[p] += v * n;
    for (const auto& [lv, v] : s->second->bytes_per_launch)
      r.bytes[lv] += v * n;
    r.work_time_s += g.total_s;
  }
  std::vector<range_summary> out;
  for (auto& [path, r] : by_path) {
    r.share = all > 0 ? r.total_s / all : 0;
    out.push_back(std::move(r));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.total_s > b.total_s; });
  return out;
}

namespace {

std::string path_text(const std::vector<std::string>& path) {
  if (path.empty())
    return "(outside every range)";
  std::string s;
  for (const auto& p : path)
    s += (s.empty() ? "" : " > ") + p;
  return s;
}

} // namespace

run range_run(const run& r, const std::vector<range_summary>& ranges) {
  run out;
  out.context = r.context;
  out.ceilings = r.ceilings;
  for (const auto& g : ranges) {
    kernel_result k;
    k.name = path_text(g.path);
    k.flops = g.flops;
    k.bytes = g.bytes;
    k.time = {g.work_time_s, g.work_time_s, g.work_time_s, 1};
    k.gpu_time_s = g.work_time_s;
    k.source = work_source::counters;
    if (g.flops.empty() && g.bytes.empty())
      k.status = "error"; // no measured launch: nothing to place
    out.kernels.push_back(std::move(k));
  }
  return out;
}

table range_table(const run& ranges_run, const std::vector<range_summary>& ranges) {
  table t;
  t.id = "ranges";
  t.title = "GPU time by NVTX range";
  t.columns = {{"range", "NVTX range"},
               {"launches", "Launches", "", 0},
               {"measured", "Measured", "", 0},
               {"inferred", "Inferred", "", 0},
               {"gpu_time_pct", "GPU time", "%", 1},
               {"gflop_per_s", "GFLOP/s", "", 1},
               {"dram_bytes", "DRAM bytes", "", 0},
               {"bound", "Bound"},
               {"pct_of_roof", "% of roof", "%", 1}};
  const auto placements = analyze(ranges_run);
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    const range_summary& g = ranges[i];
    double flops = 0;
    for (const auto& [p, v] : g.flops)
      flops += v;
    const auto dram = g.bytes.find(memory_level::dram);
    std::vector<cell> row{short_kernel_name(path_text(g.path), 96),
                          g.launches,
                          g.measured,
                          g.inferred,
                          g.share * 100,
                          g.work_time_s > 0 ? cell{flops / g.work_time_s * 1e-9} : cell{},
                          dram == g.bytes.end() ? cell{} : cell{dram->second},
                          cell{},
                          cell{}};
    if (i < placements.size() && ranges_run.kernels[i].status == "ok") {
      row[7] = placements[i].bound;
      row[8] = placements[i].pct_of_roof;
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

} // namespace roofkit

// The run of an application profile: per-kernel summary, kernels for the roofline, and the run
// file with every profiled launch.
#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "internal/run_json.hpp"
#include "roofkit/app_profile.hpp"
#include "roofkit/arch.hpp"
#include "roofkit/core.hpp"
#include "roofkit/occupancy.hpp"
#include "roofkit/profiler.hpp"
#include "roofkit/results.hpp"
#include "roofkit/timing.hpp"

namespace roofkit {

namespace {

using json = nlohmann::ordered_json;

std::string dims_text(const std::array<std::uint32_t, 3>& d) {
  return fmt::format("({}, {}, {})", d[0], d[1], d[2]);
}

/// The occupancy engine's result for a launch on the log's device; nullopt when the device's
/// architecture is unknown or no block of the launch fits on an SM.
std::optional<occupancy_result> launch_occupancy(const profile_log& log, const launch_config& l) {
  int major = 0;
  int minor = 0;
  auto it = log.device.find("cc");
  if (it == log.device.end() || std::sscanf(it->second.c_str(), "%d.%d", &major, &minor) != 2)
    return std::nullopt;
  const arch_spec* arch = find_arch(major, minor);
  if (!arch)
    return std::nullopt;
  launch_params p;
  p.threads_per_block = static_cast<int>(l.block[0] * l.block[1] * l.block[2]);
  p.registers_per_thread = static_cast<int>(l.registers_per_thread);
  p.static_smem = l.static_smem_bytes;
  p.dynamic_smem = l.dynamic_smem_bytes;
  const occupancy_result r = compute_occupancy(*arch, p, false);
  if (r.active_blocks <= 0)
    return std::nullopt;
  return r;
}

/// A profiled launch as a kernel of a run: time from its counters, theoretical occupancy and
/// waves per SM (grid blocks over SMs x the engine's blocks per SM, as ncu's
/// launch__waves_per_multiprocessor).
kernel_result launch_kernel(const profile_log& log, const launch_record& r) {
  kernel_result k = r.kernel;
  const double t = k.gpu_time_s.value_or(0);
  k.time = {t, t, t, 1};
  k.source = work_source::counters;
  const std::optional<occupancy_result> occ = launch_occupancy(log, k.launch);
  if (!occ)
    return k;
  k.occupancy_theoretical = occ->occupancy;
  const auto sms = log.device.find("sms");
  const int sm_count = sms == log.device.end() ? 0 : std::atoi(sms->second.c_str());
  if (sm_count > 0 && k.launch.registers_per_thread > 0)
    k.launch.waves_per_sm = waves_per_sm(k.launch, sm_count, occ->active_blocks);
  return k;
}

} // namespace

std::vector<kernel_summary> summarize_kernels(const profile_log& log) {
  std::map<std::string, kernel_summary> by_name;
  std::vector<std::string> order;
  auto entry = [&](const std::string& name) -> kernel_summary& {
    auto [it, added] = by_name.try_emplace(name);
    if (added) {
      it->second.name = name;
      order.push_back(name);
    }
    return it->second;
  };
  for (const auto& t : log.timings) {
    auto& s = entry(t.name);
    s.launches += t.launches;
    s.total_s += t.total_s;
    s.median_s = t.median_s;
  }
  std::map<std::string, std::vector<double>> profiled_times;
  for (const auto& r : log.launches) {
    auto& s = entry(r.kernel.name);
    ++s.profiled;
    profiled_times[r.kernel.name].push_back(r.kernel.gpu_time_s.value_or(0));
  }
  // Without timings (the process died before writing them) the profiled launches stand in.
  for (auto& [name, s] : by_name)
    if (s.launches == 0 && profiled_times.count(name)) {
      const auto& v = profiled_times[name];
      s.launches = static_cast<std::int64_t>(v.size());
      for (double x : v)
        s.total_s += x;
      s.median_s = median_of(v);
    }
  for (const auto& t : sampled_shapes(log)) {
    auto& s = entry(t.shape.name);
    s.inferred += t.inferred;
    for (const auto& [p, v] : t.flops)
      s.flops[p] += v;
    for (const auto& [l, v] : t.bytes)
      s.bytes[l] += v;
    s.spread_time = std::max(s.spread_time, t.spread_time);
    s.spread_flops = std::max(s.spread_flops, t.spread_flops);
    s.spread_dram = std::max(s.spread_dram, t.spread_dram);
    s.spread_time_timed = std::max(s.spread_time_timed, t.spread_time_timed);
  }
  double total = 0;
  for (const auto& [name, s] : by_name)
    total += s.total_s;
  std::vector<kernel_summary> out;
  for (const auto& name : order) {
    kernel_summary s = by_name[name];
    s.share = total > 0 ? s.total_s / total : 0;
    out.push_back(s);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.total_s > b.total_s; });
  return out;
}

namespace {

// The run's context from the device records of the log and the launcher's inputs.
run_context profile_context(const profile_log& log, const profile_run_inputs& in) {
  run_context c;
  c.origin = run_origin::measured;
  c.tool_version = std::string(tool_version());
  c.git_revision = std::string(git_revision());
  c.date = in.date;
  c.host = in.host;
  c.command = in.command;
  auto dev = [&log](const char* key) {
    auto it = log.device.find(key);
    return it == log.device.end() ? std::string() : it->second;
  };
  c.device_name = dev("name");
  std::sscanf(dev("cc").c_str(), "%d.%d", &c.cc_major, &c.cc_minor);
  c.sm_count = std::atoi(dev("sms").c_str());
  c.driver_version = dev("driver");
  c.runtime_version = dev("runtime");
  c.cache_control = to_string(in.options.cache);
  if (!dev("cache_control_method").empty())
    c.extra["cache_control_method"] = dev("cache_control_method");
  if (!dev("cache_control_passes").empty())
    c.extra["cache_control_passes"] = dev("cache_control_passes");
  if (!dev("cache_control_fallback_reason").empty())
    c.extra["cache_control_fallback_reason"] = dev("cache_control_fallback_reason");
  // Record logs written before the launcher's clock record existed had no clock control.
  c.clock_control = log.clock_control.empty() ? "none" : log.clock_control;
  c.extra["clock_control"] =
      !log.clock_note.empty() ? log.clock_note : apply_clock_control(clock_control::none, {}).note;
  c.extra["metric_set"] = log.metric_set;
  c.extra["replay_passes"] = std::to_string(log.passes);
  if (const auto per_launch = per_launch_set_of(log); per_launch.launches > 0)
    c.extra["per_launch_set"] = fmt::format(
        "{} of {} profiled launches measured with the per-launch set, in {} passes: achieved "
        "occupancy, L1 tag bytes and INT8 mma.sync ops of their shapes come from each shape's "
        "first {}",
        per_launch.launches, log.launches.size(), per_launch.passes,
        full_set_launches_per_shape == 1 ? std::string("launch")
                                         : fmt::format("{} launches", full_set_launches_per_shape));
  c.extra["replay"] = "user range + user replay of a re-issued launch, device memory restored "
                      "from a CUPTI checkpoint before every pass";
  c.extra["app_status"] = !in.app.started    ? "not run here (built from a record log)"
                          : in.app.signal    ? fmt::format("killed by signal {}", in.app.signal)
                          : in.app.exit_code ? fmt::format("exited with {}", in.app.exit_code)
                                             : "exited with 0";
  return c;
}

// One kernel of the run from the launches of one name and configuration: the first launch's
// facts, the mean work, each raw counter's mean over the launches that carry it (those of the
// per-launch set lack the shape's detail counters), the median time, occupancy and clocks.
void merge_launches(kernel_result& k, const std::vector<const launch_record*>& launches) {
  std::vector<double> times;
  std::map<precision, double> flops;
  std::map<memory_level, double> bytes;
  std::map<std::string, std::pair<double, double>> counters; // sum, launches
  std::vector<double> occ;
  std::vector<double> clocks;
  std::vector<double> mclocks;
  for (const auto* l : launches) {
    times.push_back(l->kernel.gpu_time_s.value_or(0));
    for (const auto& [p, v] : l->kernel.flops)
      flops[p] += v;
    for (const auto& [lv, v] : l->kernel.bytes)
      bytes[lv] += v;
    for (const auto& [n, v] : l->kernel.counters) {
      counters[n].first += v;
      counters[n].second += 1;
    }
    if (l->kernel.occupancy_achieved)
      occ.push_back(*l->kernel.occupancy_achieved);
    if (l->kernel.sm_clock_mhz)
      clocks.push_back(*l->kernel.sm_clock_mhz);
    if (l->kernel.mem_clock_mhz)
      mclocks.push_back(*l->kernel.mem_clock_mhz);
  }
  const double n = static_cast<double>(launches.size());
  k.flops.clear();
  k.bytes.clear();
  k.counters.clear();
  for (const auto& [p, v] : flops)
    k.flops[p] = v / n;
  for (const auto& [lv, v] : bytes)
    k.bytes[lv] = v / n;
  for (const auto& [name, v] : counters)
    k.counters[name] = v.first / v.second;
  k.time.median_s = median_of(times);
  k.time.min_s = *std::min_element(times.begin(), times.end());
  k.time.max_s = *std::max_element(times.begin(), times.end());
  k.time.repetitions = static_cast<int>(times.size());
  k.gpu_time_s = k.time.median_s;
  if (!occ.empty())
    k.occupancy_achieved = median_of(occ);
  if (!clocks.empty())
    k.sm_clock_mhz = median_of(clocks);
  if (!mclocks.empty())
    k.mem_clock_mhz = median_of(mclocks);
}

// The sampling of a kernel's configuration (its name, grid and block, whatever the dynamic shared
// memory): launches measured and inferred, the work extrapolated to all its launches, the spread.
void add_sampling_counters(kernel_result& k, const std::string& name,
                           const std::vector<shape_totals>& shapes) {
  double measured = 0;
  double inferred = 0;
  std::map<std::string, double> totals;
  double spread_time = 0;
  double spread_flops = 0;
  double spread_dram = 0;
  double spread_timed = 0;
  for (const auto& t : shapes) {
    if (t.shape.name != name || t.shape.grid != k.launch.grid || t.shape.block != k.launch.block)
      continue;
    measured += static_cast<double>(t.measured);
    inferred += static_cast<double>(t.inferred);
    for (const auto& [p, v] : t.flops)
      totals["roofkit__app_total_flops." + to_string(p)] += v;
    for (const auto& [l, v] : t.bytes)
      totals["roofkit__app_total_bytes." + to_string(l)] += v;
    spread_time = std::max(spread_time, t.spread_time);
    spread_flops = std::max(spread_flops, t.spread_flops);
    spread_dram = std::max(spread_dram, t.spread_dram);
    spread_timed = std::max(spread_timed, t.spread_time_timed);
  }
  k.counters["roofkit__app_measured_launches"] = measured;
  k.counters["roofkit__app_inferred_launches"] = inferred;
  for (const auto& [counter, v] : totals)
    k.counters[counter] = v;
  k.counters["roofkit__app_spread_time"] = spread_time;
  k.counters["roofkit__app_spread_flops"] = spread_flops;
  k.counters["roofkit__app_spread_dram_bytes"] = spread_dram;
  k.counters["roofkit__app_spread_time_timed"] = spread_timed;
}

} // namespace

run build_profile_run(const profile_log& log, const profile_run_inputs& in) {
  run r;
  r.ceilings = in.ceilings;
  r.context = profile_context(log, in);
  run_context& c = r.context;
  // One kernel per name and launch configuration, in order of GPU time.
  const auto summary = summarize_kernels(log);
  std::map<std::string, std::set<std::string>> configs;
  for (const auto& l : log.launches)
    configs[l.kernel.name].insert(dims_text(l.kernel.launch.grid) + " " +
                                  dims_text(l.kernel.launch.block));
  std::vector<double> sm_mhz;
  std::vector<double> mem_mhz;
  const auto shapes = sampled_shapes(log);
  for (const auto& s : summary) {
    std::vector<std::string> keys;
    std::map<std::string, std::vector<const launch_record*>> groups;
    for (const auto& l : log.launches) {
      if (l.kernel.name != s.name)
        continue;
      const std::string key =
          dims_text(l.kernel.launch.grid) + " " + dims_text(l.kernel.launch.block);
      if (!groups.count(key))
        keys.push_back(key);
      groups[key].push_back(&l);
    }
    for (const auto& key : keys) {
      const auto& launches = groups[key];
      kernel_result k = launch_kernel(log, *launches.front());
      k.mangled_name = launches.front()->mangled_name;
      if (configs[s.name].size() > 1)
        k.name +=
            fmt::format(" [grid {} block {}]", dims_text(k.launch.grid), dims_text(k.launch.block));
      merge_launches(k, launches);
      if (k.sm_clock_mhz)
        sm_mhz.push_back(*k.sm_clock_mhz);
      if (k.mem_clock_mhz)
        mem_mhz.push_back(*k.mem_clock_mhz);
      add_sampling_counters(k, s.name, shapes);
      k.counters["roofkit__app_launches"] = static_cast<double>(s.launches);
      k.counters["roofkit__app_total_time_s"] = s.total_s;
      k.counters["roofkit__app_gpu_time_share"] = s.share;
      const double inferred = k.counters["roofkit__app_inferred_launches"];
      k.size = inferred > 0
                   ? fmt::format("{} of {} launches profiled, {:.0f} inferred from their "
                                 "shape",
                                 launches.size(), s.launches, inferred)
                   : fmt::format("{} of {} launches profiled", launches.size(), s.launches);
      r.kernels.push_back(std::move(k));
    }
  }
  c.sm_clock_mhz = median_of(sm_mhz);
  c.mem_clock_mhz = median_of(mem_mhz);
  if (auto note = unload_sets_note(log); !note.empty())
    c.notes.push_back(std::move(note));
  return r;
}

namespace {

template <class K> json totals_json(const std::map<K, double>& m) {
  json j = json::object();
  for (const auto& [k, v] : m)
    j[to_string(k)] = v;
  return j;
}

// The spreads of a shape_totals or a kernel_summary.
template <class T> json spread_json(const T& t) {
  return {{"gpu_time", t.spread_time},
          {"flops", t.spread_flops},
          {"dram_bytes", t.spread_dram},
          {"gpu_time_timed", t.spread_time_timed}};
}

// Most inferred launch indexes a shape lists in the run file (beyond it, the count only).
constexpr std::size_t max_listed_inferred = 100000;

// Every launch shape: its launches measured and inferred (with the inferred ones' indexes), its
// work per launch and extrapolated to all its launches, the spread between measured launches.
json shapes_json(const profile_log& log, const std::vector<shape_totals>& shapes) {
  json list = json::array();
  for (const auto& t : shapes) {
    json one = {{"pid", t.shape.pid},
                {"id", t.shape.id},
                {"name", t.shape.name},
                {"grid", t.shape.grid},
                {"block", t.shape.block},
                {"dynamic_smem", t.shape.dynamic_smem},
                {"launches", t.launches},
                {"measured", t.measured},
                {"inferred", t.inferred},
                {"gpu_time_s", t.total_s},
                {"flops_per_launch", totals_json(t.flops_per_launch)},
                {"bytes_per_launch", totals_json(t.bytes_per_launch)},
                {"flops", totals_json(t.flops)},
                {"bytes", totals_json(t.bytes)},
                {"spread", spread_json(t)}};
    const auto inf = log.inferred.find({t.shape.pid, t.shape.id});
    if (inf != log.inferred.end() && inf->second.size() <= max_listed_inferred)
      one["inferred_indexes"] = inf->second;
    else if (inf != log.inferred.end())
      one["inferred_indexes_omitted"] = inf->second.size();
    list.push_back(std::move(one));
  }
  return list;
}

const std::vector<std::string>* range_path(const profile_log& log, const launch_record& l) {
  if (l.range < 0)
    return nullptr;
  for (const auto& r : log.ranges)
    if (r.pid == l.pid && r.id == l.range)
      return &r.path;
  return nullptr;
}

json ranges_json(const run& r, const profile_log& log) {
  const auto ranges = summarize_ranges(log);
  const run placed = range_run(r, ranges);
  const auto placements = analyze(placed);
  json list = json::array();
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    const auto& g = ranges[i];
    double flops = 0;
    for (const auto& [p, v] : g.flops)
      flops += v;
    json one = {{"path", g.path},
                {"launches", g.launches},
                {"measured", g.measured},
                {"inferred", g.inferred},
                {"gpu_time_s", g.total_s},
                {"gpu_time_share", g.share},
                {"flops", totals_json(g.flops)},
                {"bytes", totals_json(g.bytes)},
                {"work_time_s", g.work_time_s},
                {"flop_per_s", g.work_time_s > 0 ? flops / g.work_time_s : 0.0}};
    if (placed.kernels[i].status == "ok" && !placements[i].bound.empty()) {
      one["bound"] = placements[i].bound;
      one["pct_of_roof"] = placements[i].pct_of_roof;
    }
    list.push_back(std::move(one));
  }
  return list;
}

json summary_json(const profile_log& log) {
  json summary = json::array();
  for (const auto& s : summarize_kernels(log))
    summary.push_back({{"name", s.name},
                       {"launches", s.launches},
                       {"profiled", s.profiled},
                       {"measured", s.profiled},
                       {"inferred", s.inferred},
                       {"total_time_s", s.total_s},
                       {"median_time_s", s.median_s},
                       {"gpu_time_share", s.share},
                       {"flops", totals_json(s.flops)},
                       {"bytes", totals_json(s.bytes)},
                       {"spread", spread_json(s)}});
  return summary;
}

} // namespace

std::string profile_run_json(const run& r, const profile_log& log, const profile_run_inputs& in) {
  json j = detail::run_document(r);
  json p = json::object();
  json app = json::object();
  app["command"] = in.command;
  app["started"] = in.app.started;
  app["exit_code"] = in.app.exit_code;
  if (in.app.signal)
    app["signal"] = in.app.signal;
  app["status"] = r.context.extra.count("app_status") ? r.context.extra.at("app_status") : "";
  app["records_complete"] = log.finished;
  p["app"] = app;
  json opts = json::object();
  opts["kernel"] = in.options.kernel_regex;
  opts["nvtx"] = in.options.nvtx_range;
  opts["launch_skip"] = in.options.launch_skip;
  opts["launch_count"] = in.options.launch_count;
  opts["cache_control"] = to_string(in.options.cache);
  opts["clock_control"] = r.context.clock_control; // from the log: also right when rebuilt
  opts["profile_from_start"] = to_string(in.options.from_start);
  opts["replay_batch"] = in.options.replay_batch;
  opts["sample"] = to_string(in.options.sample);
  opts["nvtx_scope"] = to_string(in.options.nvtx_rule);
  opts["nvtx_groups"] = in.options.nvtx_groups || !in.options.nvtx_range.empty();
  p["options"] = opts;
  p["processes"] = log.processes;
  p["total_launches"] = log.total_launches;
  p["profiled_launches"] = log.launches.size();
  const profile_cost cost = profile_cost_of(log);
  p["profile_setup_s"] = cost.setup_s;
  p["profile_overhead_s"] = cost.total_s();
  p["profile_overhead_per_launch_s"] = cost.per_launch_s();
  p["profile_overhead_per_launch_after_setup_s"] = cost.per_launch_after_setup_s();
  if (!log.profiler_time.empty())
    p["profiler_time_s"] = log.profiler_time;
  const auto shapes = sampled_shapes(log);
  std::int64_t inferred = 0;
  for (const auto& t : shapes)
    inferred += t.inferred;
  p["inferred_launches"] = inferred;
  p["kernels"] = summary_json(log);
  p["shapes"] = shapes_json(log, shapes);
  p["ranges"] = ranges_json(r, log);
  // Every profiled launch with its own placement, in the kernel format of the run.
  run launches;
  launches.context = r.context;
  launches.ceilings = r.ceilings;
  for (const auto& l : log.launches)
    launches.kernels.push_back(launch_kernel(log, l));
  json lj = detail::run_document(std::move(launches));
  json list = json::array();
  for (std::size_t i = 0; i < log.launches.size(); ++i) {
    json one = json::object();
    one["index"] = log.launches[i].index;
    one["pid"] = log.launches[i].pid;
    one["stream"] = log.launches[i].stream;
    one["thread"] = log.launches[i].thread;
    one["profile_overhead_s"] = log.launches[i].profile_overhead_s;
    for (auto& [key, value] : lj["kernels"][i].items())
      one[key] = std::move(value);
    one["mangled_name"] = log.launches[i].mangled_name; // the kernel format leaves it empty
    one["sample"] = "measured";
    if (log.launches[i].shape >= 0)
      one["shape"] = log.launches[i].shape;
    if (const auto* path = range_path(log, log.launches[i]))
      one["nvtx_ranges"] = *path;
    list.push_back(std::move(one));
  }
  p["launches"] = std::move(list);
  json skipped = json::array();
  for (const auto& s : log.skipped)
    skipped.push_back({{"name", s.name}, {"reason", s.reason}, {"launches", s.launches}});
  p["not_profiled"] = skipped;
  json errors = json::array();
  for (std::size_t i = 0; i < log.errors.size(); ++i)
    errors.push_back({{"message", log.errors[i]}, {"hint", log.hints[i]}});
  p["errors"] = errors;
  j["profile"] = std::move(p);
  return detail::run_json_text(j);
}

run top_kernels_run(const run& r, const profile_log& log, std::size_t max_kernels, double share) {
  const auto summary = summarize_kernels(log);
  std::set<std::string> keep;
  double covered = 0;
  for (const auto& s : summary) {
    if (keep.size() >= max_kernels || (covered >= share && !keep.empty()))
      break;
    if (s.profiled == 0)
      continue;
    keep.insert(s.name);
    covered += s.share;
  }
  run out = r;
  out.kernels.clear();
  for (const auto& k : r.kernels) {
    const std::string base = k.name.substr(0, k.name.find(" [grid "));
    if (keep.count(base))
      out.kernels.push_back(k);
  }
  return out;
}

} // namespace roofkit

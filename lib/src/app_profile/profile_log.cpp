// The record log of an application profile: one JSON object per line, written and flushed by the
// injected library as it goes, so that a crash loses at most the line being written.
#include <algorithm>
#include <cstdlib>
#include <memory>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "roofkit/app_profile.hpp"
#include "roofkit/core.hpp"

namespace roofkit {

namespace {

using json = nlohmann::ordered_json;

std::string line_of(const json& j) { return j.dump() + '\n'; }

json dims(const std::array<std::uint32_t, 3>& d) { return json::array({d[0], d[1], d[2]}); }

std::array<std::uint32_t, 3> dims_of(const json& j) {
  std::array<std::uint32_t, 3> d{1, 1, 1};
  for (std::size_t i = 0; i < 3 && i < j.size(); ++i)
    d[i] = j[i].get<std::uint32_t>();
  return d;
}

template <class T> void put_opt(json& j, const char* key, const std::optional<T>& v) {
  if (v)
    j[key] = *v;
}

template <class T> std::optional<T> get_opt(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null())
    return std::nullopt;
  return it->get<T>();
}

} // namespace

std::string start_line(const std::map<std::string, std::string>& device,
                       const std::string& metric_set, int passes, std::int64_t pid) {
  json j = {{"type", "start"},
            {"pid", pid},
            {"device", device},
            {"metric_set", metric_set},
            {"passes", passes}};
  return line_of(j);
}

std::string launch_line(const launch_record& r) {
  const kernel_result& k = r.kernel;
  json j = {{"type", "launch"},
            {"index", r.index},
            {"pid", r.pid},
            {"name", k.name},
            {"mangled", r.mangled_name},
            {"grid", dims(k.launch.grid)},
            {"block", dims(k.launch.block)}};
  j["registers"] = k.launch.registers_per_thread;
  j["static_smem"] = k.launch.static_smem_bytes;
  j["dynamic_smem"] = k.launch.dynamic_smem_bytes;
  j["local_bytes"] = k.launch.local_bytes_per_thread;
  j["cluster"] = dims(k.launch.cluster);
  j["stream"] = r.stream;
  j["thread"] = r.thread;
  put_opt(j, "gpu_time_s", k.gpu_time_s);
  put_opt(j, "sm_clock_mhz", k.sm_clock_mhz);
  put_opt(j, "mem_clock_mhz", k.mem_clock_mhz);
  put_opt(j, "occupancy_achieved", k.occupancy_achieved);
  json flops = json::object();
  for (const auto& [p, v] : k.flops)
    flops[to_string(p)] = v;
  json bytes = json::object();
  for (const auto& [l, v] : k.bytes)
    bytes[to_string(l)] = v;
  j["flops"] = flops;
  j["bytes"] = bytes;
  j["counters"] = k.counters;
  j["profile_overhead_s"] = r.profile_overhead_s;
  if (r.shape >= 0) {
    j["shape"] = r.shape;
    j["sample"] = "measured";
  }
  if (r.range >= 0)
    j["range"] = r.range;
  if (r.per_launch_set)
    j["counter_set"] = "per-launch";
  if (!k.message.empty())
    j["message"] = k.message;
  return line_of(j);
}

std::string timing_line(const kernel_timing& t) {
  json j = {{"type", "timing"},     {"name", t.name},         {"launches", t.launches},
            {"total_s", t.total_s}, {"median_s", t.median_s}, {"min_s", t.min_s},
            {"max_s", t.max_s}};
  return line_of(j);
}

std::string not_profiled_line(const not_profiled& n) {
  json j = {
      {"type", "not_profiled"}, {"name", n.name}, {"reason", n.reason}, {"launches", n.launches}};
  return line_of(j);
}

std::string shape_line(const shape_record& s) {
  json j = {{"type", "shape"},
            {"pid", s.pid},
            {"id", s.id},
            {"name", s.name},
            {"mangled", s.mangled_name},
            {"grid", dims(s.grid)},
            {"block", dims(s.block)},
            {"dynamic_smem", s.dynamic_smem}};
  return line_of(j);
}

std::string range_line(const range_record& r) {
  return line_of(json{{"type", "range"}, {"pid", r.pid}, {"id", r.id}, {"path", r.path}});
}

std::string group_line(const launch_group& g) {
  json j = {{"type", "group"},        {"pid", g.pid},           {"shape", g.shape},
            {"range", g.range},       {"launches", g.launches}, {"measured", g.measured},
            {"inferred", g.inferred}, {"total_s", g.total_s},   {"min_s", g.min_s},
            {"max_s", g.max_s}};
  return line_of(j);
}

std::string inferred_line(const std::vector<std::pair<std::int64_t, int>>& launches,
                          std::int64_t pid) {
  json list = json::array();
  for (const auto& [index, shape] : launches)
    list.push_back(json::array({index, shape}));
  return line_of(json{{"type", "inferred"}, {"pid", pid}, {"launches", list}});
}

std::string error_line(const std::string& message, const std::string& hint, int exit) {
  json j = {{"type", "error"}, {"message", message}, {"hint", hint}, {"exit", exit}};
  return line_of(j);
}

std::string stall_line(const std::string& function,
                       const std::map<std::string, std::uint64_t>& reasons, std::uint64_t dropped,
                       std::int64_t pid) {
  return line_of(json{{"type", "stalls"},
                      {"pid", pid},
                      {"function", function},
                      {"reasons", reasons},
                      {"dropped", dropped}});
}

std::string registers_line(const std::string& function, unsigned registers, std::int64_t pid) {
  return line_of(
      json{{"type", "registers"}, {"pid", pid}, {"function", function}, {"registers", registers}});
}

std::string end_line(std::int64_t total_launches, std::int64_t pid) {
  return line_of(json{{"type", "end"}, {"pid", pid}, {"launches", total_launches}});
}

std::string clock_line(clock_control mode, const std::string& note) {
  return line_of(json{{"type", "clock"}, {"clock_control", to_string(mode)}, {"note", note}});
}

double profile_cost::per_launch_s() const {
  return launches == 0 ? 0.0 : total_s() / static_cast<double>(launches);
}

double profile_cost::per_launch_after_setup_s() const {
  return launches == 0 ? 0.0 : launches_s / static_cast<double>(launches);
}

profile_cost profile_cost_of(const profile_log& log) {
  profile_cost c;
  for (const auto& l : log.launches)
    c.launches_s += l.profile_overhead_s;
  c.launches = log.launches.size();
  if (const auto it = log.profiler_time.find("session_setup_s"); it != log.profiler_time.end())
    c.setup_s = it->second;
  return c;
}

std::string unload_sets_note(const profile_log& log) {
  double sets = 0;
  double by_unloads = 0;
  for (const auto& [field, n] : log.profiler_time) {
    if (field == "batches")
      sets += n;
    else if (field.rfind("batch_ended_by:cuModuleUnload", 0) == 0 ||
             field.rfind("batch_ended_by:cuLibraryUnload", 0) == 0)
      by_unloads += n;
  }
  if (by_unloads < 10 || 2 * by_unloads < sets)
    return {};
  return fmt::format("{:.0f} of the {:.0f} sets of replay passes were ended by module unloads: "
                     "the application loaded, ran and unloaded kernels it tried (as cuDNN does "
                     "while it benchmarks its algorithms), and each set was replayed before its "
                     "unload. To leave that part out, profile the application's own region: "
                     "from its cudaProfilerStart, or inside an NVTX range",
                     by_unloads, sets);
}

per_launch_set_use per_launch_set_of(const profile_log& log) {
  per_launch_set_use u;
  u.launches = static_cast<std::size_t>(std::count_if(
      log.launches.begin(), log.launches.end(), [](const auto& l) { return l.per_launch_set; }));
  const auto it = log.device.find("per_launch_set_passes");
  u.passes = it != log.device.end() ? it->second : "fewer";
  return u;
}

std::string profiler_time_line(const std::map<std::string, double>& fields) {
  json j = {{"type", "profiler_time"}};
  for (const auto& [k, v] : fields)
    j[k] = v;
  return line_of(j);
}

namespace {

// The registers the hardware ran each function with, over the compiled counts of its launches.
void apply_function_registers(profile_log& log) {
  for (launch_record& r : log.launches) {
    const std::string& function = r.mangled_name.empty() ? r.kernel.name : r.mangled_name;
    const auto it = log.function_registers.find({r.pid, function});
    if (it != log.function_registers.end())
      r.kernel.launch.registers_per_thread = it->second;
  }
}

// A launch record: the launch, its facts and counters.
launch_record launch_of(const json& j, std::int64_t pid) {
  launch_record r;
  r.index = j.at("index").get<std::int64_t>();
  r.pid = pid;
  r.mangled_name = j.value("mangled", "");
  kernel_result& k = r.kernel;
  k.name = j.at("name").get<std::string>();
  k.launch.grid = dims_of(j.at("grid"));
  k.launch.block = dims_of(j.at("block"));
  k.launch.registers_per_thread = j.value("registers", 0u);
  k.launch.static_smem_bytes = j.value("static_smem", 0u);
  k.launch.dynamic_smem_bytes = j.value("dynamic_smem", 0u);
  k.launch.local_bytes_per_thread = j.value("local_bytes", 0u);
  if (j.contains("cluster"))
    k.launch.cluster = dims_of(j.at("cluster"));
  r.stream = j.value("stream", std::uint64_t{0});
  r.thread = j.value("thread", std::uint64_t{0});
  k.gpu_time_s = get_opt<double>(j, "gpu_time_s");
  k.sm_clock_mhz = get_opt<double>(j, "sm_clock_mhz");
  k.mem_clock_mhz = get_opt<double>(j, "mem_clock_mhz");
  k.occupancy_achieved = get_opt<double>(j, "occupancy_achieved");
  for (const auto& [name, v] : j.at("flops").items())
    if (auto p = parse_precision(name))
      k.flops[*p] = v.get<double>();
  for (const auto& [name, v] : j.at("bytes").items())
    if (auto l = parse_memory_level(name))
      k.bytes[*l] = v.get<double>();
  for (const auto& [name, v] : j.at("counters").items())
    k.counters[name] = v.get<double>();
  k.source = work_source::counters;
  k.message = j.value("message", "");
  r.profile_overhead_s = j.value("profile_overhead_s", 0.0);
  r.shape = j.value("shape", -1);
  r.range = j.value("range", -1);
  r.per_launch_set = j.value("counter_set", "") == "per-launch";
  return r;
}

// The sampling records: shapes, NVTX ranges, groups and inferred launches.
bool parse_sampling_line(const std::string& type, const json& j, std::int64_t pid,
                         profile_log& log) {
  if (type == "shape") {
    shape_record s;
    s.pid = pid;
    s.id = j.at("id").get<int>();
    s.name = j.at("name").get<std::string>();
    s.mangled_name = j.value("mangled", "");
    s.grid = dims_of(j.at("grid"));
    s.block = dims_of(j.at("block"));
    s.dynamic_smem = j.value("dynamic_smem", 0u);
    log.shapes.push_back(std::move(s));
  } else if (type == "range") {
    log.ranges.push_back(
        {pid, j.at("id").get<int>(), j.at("path").get<std::vector<std::string>>()});
  } else if (type == "group") {
    launch_group g;
    g.pid = pid;
    g.shape = j.at("shape").get<int>();
    g.range = j.value("range", -1);
    g.launches = j.at("launches").get<std::int64_t>();
    g.measured = j.value("measured", std::int64_t{0});
    g.inferred = j.value("inferred", std::int64_t{0});
    g.total_s = j.value("total_s", 0.0);
    g.min_s = j.value("min_s", 0.0);
    g.max_s = j.value("max_s", 0.0);
    log.groups.push_back(g);
  } else if (type == "inferred") {
    for (const auto& l : j.at("launches"))
      log.inferred[{pid, l.at(1).get<int>()}].push_back(l.at(0).get<std::int64_t>());
  } else {
    return false;
  }
  return true;
}

} // namespace

profile_log parse_profile_log(std::string_view text) {
  profile_log log;
  // Per process (several write to one log when the application starts others): whether it
  // launched kernels, its end record's launch count, the launches its profiled ones imply.
  std::set<std::int64_t> launched;
  std::map<std::int64_t, std::int64_t> ended;
  std::map<std::int64_t, std::int64_t> seen;
  std::size_t pos = 0;
  int line_no = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    const bool last = end == std::string_view::npos;
    if (last)
      end = text.size();
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (line.empty())
      continue;
    json j = json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
      if (last)
        break; // the process ended while writing this line
      throw runtime_error(fmt::format("profile record line {} is not a JSON object", line_no));
    }
    try {
      const std::string type = j.value("type", "");
      const std::int64_t pid = j.value("pid", std::int64_t{0});
      if (type == "start") {
        launched.insert(pid);
        for (const auto& [k, v] : j.at("device").items())
          log.device[k] = v.get<std::string>();
        if (j.value("passes", 0) > 0) { // the first record names the device only
          log.metric_set = j.value("metric_set", "");
          log.passes = j.value("passes", 0);
        }
      } else if (type == "launch") {
        launch_record r = launch_of(j, pid);
        seen[pid] = std::max(seen[pid], r.index + 1);
        log.launches.push_back(std::move(r));
      } else if (type == "timing") {
        kernel_timing t;
        t.name = j.at("name").get<std::string>();
        t.launches = j.at("launches").get<std::int64_t>();
        t.total_s = j.at("total_s").get<double>();
        t.median_s = j.value("median_s", 0.0);
        t.min_s = j.value("min_s", 0.0);
        t.max_s = j.value("max_s", 0.0);
        log.timings.push_back(std::move(t));
      } else if (type == "not_profiled") {
        log.skipped.push_back({j.at("name").get<std::string>(), j.at("reason").get<std::string>(),
                               j.at("launches").get<std::int64_t>()});
      } else if (type == "error") {
        log.errors.push_back(j.at("message").get<std::string>());
        log.hints.push_back(j.value("hint", ""));
        log.error_exit = std::max(log.error_exit, j.value("exit", 1));
      } else if (type == "profiler_time") {
        for (const auto& [k, v] : j.items())
          if (v.is_number())
            log.profiler_time[k] += v.get<double>();
      } else if (type == "clock") {
        log.clock_control = j.at("clock_control").get<std::string>();
        log.clock_note = j.value("note", "");
      } else if (type == "end") {
        ended[pid] = j.value("launches", std::int64_t{0});
      } else if (type == "stalls") {
        add_stall_totals(log.stalls,
                         {{j.at("function").get<std::string>(),
                           j.at("reasons").get<std::map<std::string, std::uint64_t>>()}});
        log.stall_dropped[pid] = j.value("dropped", std::uint64_t{0});
      } else if (type == "registers") {
        log.function_registers[{pid, j.at("function").get<std::string>()}] =
            j.at("registers").get<unsigned>();
      } else if (type == "rank" || type == "nccl" || type == "collective" || type == "nvlink") {
        // multi-GPU records: parse_rank_log (roofkit/ranks.hpp) reads them
      } else if (!parse_sampling_line(type, j, pid, log)) {
        throw runtime_error(fmt::format("unknown record type '{}'", type));
      }
    } catch (const json::exception& e) {
      throw runtime_error(fmt::format("profile record line {}: {}", line_no, e.what()));
    }
  }
  // Finished when every process that wrote records ended; a process without its end record
  // counts at least the launches it profiled.
  log.finished = !ended.empty() || !launched.empty();
  for (const auto pid : launched)
    log.finished = log.finished && ended.count(pid);
  for (const auto& [pid, n] : seen)
    log.finished = log.finished && ended.count(pid);
  for (const auto& [pid, n] : ended)
    log.total_launches += n;
  for (const auto& [pid, n] : seen)
    if (!ended.count(pid))
      log.total_launches += n;
  log.processes = static_cast<int>(launched.size());
  apply_function_registers(log);
  return log;
}

} // namespace roofkit

// Collective kernels: the name rule, nccl-tests' bus bandwidth, and the NCCL calls matched to
// the kernels that carried them out.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "roofkit/ranks.hpp"

namespace roofkit {

namespace {

using json = nlohmann::json;

struct op_name {
  collective_op op;
  const char* text;
  const char* in_kernel; ///< how a kernel's name spells it ("" when no kernel does)
};
// Longer kernel spellings first: "ReduceScatter" before "Reduce".
constexpr op_name op_names[] = {
    {collective_op::all_reduce, "all_reduce", "AllReduce"},
    {collective_op::all_gather, "all_gather", "AllGather"},
    {collective_op::reduce_scatter, "reduce_scatter", "ReduceScatter"},
    {collective_op::broadcast, "broadcast", "Broadcast"},
    {collective_op::send_recv, "send_recv", "SendRecv"},
    {collective_op::reduce, "reduce", "Reduce"},
    {collective_op::send, "send", ""},
    {collective_op::recv, "recv", ""},
    {collective_op::mixed, "mixed", ""},
    {collective_op::unknown, "unknown", ""},
};

std::string_view without_void(std::string_view name) {
  constexpr std::string_view v = "void ";
  if (name.substr(0, v.size()) == v)
    name.remove_prefix(v.size());
  return name;
}

} // namespace

std::string to_string(collective_op op) {
  for (const auto& n : op_names)
    if (n.op == op)
      return n.text;
  return "unknown";
}

collective_op parse_collective_op(std::string_view text) {
  for (const auto& n : op_names)
    if (text == n.text)
      return n.op;
  return collective_op::unknown;
}

bool is_collective_kernel(std::string_view name) {
  name = without_void(name);
  name = name.substr(0, name.find('('));
  // ncclDevKernel_*, ncclKernel_*, ncclDevKernelDebug_*, and the other families NCCL names the
  // same way (ncclSymkDevKernel_*): "nccl", a word with "Kernel" in it, "_", the operation.
  const std::size_t underscore = name.find('_');
  if (name.substr(0, 4) != "nccl" || underscore == std::string_view::npos ||
      underscore + 1 >= name.size())
    return false;
  const std::string_view family = name.substr(4, underscore - 4);
  return family.find("Kernel") != std::string_view::npos &&
         std::isupper(static_cast<unsigned char>(name[4]));
}

collective_op collective_op_of_kernel(std::string_view name) {
  if (!is_collective_kernel(name))
    return collective_op::unknown;
  name = without_void(name);
  name = name.substr(name.find('_') + 1); // after "ncclDevKernel_"
  for (const auto& n : op_names) {
    const std::string_view k = n.in_kernel;
    if (!k.empty() && name.substr(0, k.size()) == k)
      return n.op;
  }
  return collective_op::unknown;
}

double bus_factor(collective_op op, int nranks) {
  if (nranks < 1)
    return std::numeric_limits<double>::quiet_NaN();
  const double n = nranks;
  switch (op) {
  case collective_op::all_reduce:
    return 2 * (n - 1) / n;
  case collective_op::all_gather:
  case collective_op::reduce_scatter:
    return (n - 1) / n;
  case collective_op::broadcast:
  case collective_op::reduce:
  case collective_op::send:
  case collective_op::recv:
  case collective_op::send_recv:
    return 1;
  default:
    return std::numeric_limits<double>::quiet_NaN();
  }
}

std::vector<collective_record> correlate_collectives(std::vector<nccl_call> calls,
                                                     std::vector<collective_launch> launches) {
  auto by_time = [](const auto& a, const auto& b) {
    return std::tie(a.pid, a.t_ns) < std::tie(b.pid, b.t_ns);
  };
  std::stable_sort(calls.begin(), calls.end(), by_time);
  std::stable_sort(launches.begin(), launches.end(), by_time);
  std::vector<collective_record> out(launches.size());
  std::vector<bool> used(calls.size(), false);
  std::vector<std::vector<std::size_t>> taken(launches.size());
  // Pass 1: per process and stream, each launch takes the calls made since the previous one.
  std::map<std::pair<std::int64_t, std::uint64_t>, std::vector<std::size_t>> queues;
  for (std::size_t c = 0; c < calls.size(); ++c)
    queues[{calls[c].pid, calls[c].stream}].push_back(c);
  std::map<std::pair<std::int64_t, std::uint64_t>, std::size_t> head;
  for (std::size_t i = 0; i < launches.size(); ++i) {
    const std::pair key{launches[i].pid, launches[i].stream};
    auto q = queues.find(key);
    if (q == queues.end())
      continue;
    std::size_t& h = head[key];
    for (; h < q->second.size() && calls[q->second[h]].t_ns <= launches[i].t_ns; ++h) {
      used[q->second[h]] = true;
      taken[i].push_back(q->second[h]);
    }
  }
  // Pass 2: launches still without a call, in time order, take the process's unused calls made
  // before them on any stream (both lists are in process and time order: one walk).
  std::size_t c = 0;
  for (std::size_t i = 0; i < launches.size(); ++i) {
    if (!taken[i].empty())
      continue;
    const auto& l = launches[i];
    while (c < calls.size() && calls[c].pid < l.pid)
      ++c;
    for (; c < calls.size() && calls[c].pid == l.pid && calls[c].t_ns <= l.t_ns; ++c)
      if (!used[c]) {
        used[c] = true;
        taken[i].push_back(c);
      }
  }
  for (std::size_t i = 0; i < launches.size(); ++i) {
    collective_record& r = out[i];
    r.launch = std::move(launches[i]);
    r.calls = static_cast<int>(taken[i].size());
    double bus_bytes = 0;
    for (std::size_t k : taken[i]) {
      const nccl_call& call = calls[k];
      r.op = k == taken[i].front() ? call.op : (r.op == call.op ? r.op : collective_op::mixed);
      r.bytes += call.bytes;
      r.nranks = std::max(r.nranks, call.nranks);
      bus_bytes += call.bytes * bus_factor(call.op, call.nranks);
    }
    if (r.calls == 0)
      r.op = collective_op_of_kernel(r.launch.name);
    if (r.calls > 0 && std::isfinite(bus_bytes))
      r.bus_bytes = bus_bytes;
    if (r.calls > 0 && r.launch.time_s > 0) {
      r.algbw = r.bytes / r.launch.time_s;
      r.busbw = std::isfinite(bus_bytes) ? bus_bytes / r.launch.time_s : 0;
    }
  }
  return out;
}

std::string rank_line(const rank_info& r, std::int64_t pid, int ordinal, const std::string& uuid) {
  json j = {{"type", "rank"},
            {"pid", pid},
            {"rank", r.rank},
            {"local_rank", r.local_rank},
            {"world_size", r.world_size},
            {"source", r.source},
            {"device", ordinal},
            {"gpu_uuid", uuid}};
  return j.dump() + '\n';
}

std::string collective_line(const collective_launch& l) {
  json j = {{"type", "collective"}, {"pid", l.pid},   {"index", l.index},  {"name", l.name},
            {"stream", l.stream},   {"t_ns", l.t_ns}, {"time_s", l.time_s}};
  return j.dump() + '\n';
}

std::string nvlink_line(const nvlink_traffic& t, std::int64_t pid) {
  json j = {{"type", "nvlink"},       {"pid", pid},
            {"counter", t.counter},   {"why", t.why},
            {"tx_bytes", t.tx_bytes}, {"rx_bytes", t.rx_bytes},
            {"seconds", t.seconds}};
  return j.dump() + '\n';
}

rank_log parse_rank_log(std::string_view text) {
  rank_log out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos)
      end = text.size();
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    // Only the lines of this module's types: the others are parse_profile_log's.
    if (line.find("\"type\":\"rank\"") == std::string_view::npos &&
        line.find("\"type\":\"nccl\"") == std::string_view::npos &&
        line.find("\"type\":\"collective\"") == std::string_view::npos &&
        line.find("\"type\":\"nvlink\"") == std::string_view::npos)
      continue;
    const json j = json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object())
      continue; // cut short when the process died while writing it
    const std::string type = j.value("type", "");
    const std::int64_t pid = j.value("pid", std::int64_t{0});
    if (type == "rank") {
      rank_info r;
      r.rank = j.value("rank", -1);
      r.local_rank = j.value("local_rank", -1);
      r.world_size = j.value("world_size", 0);
      r.source = j.value("source", "");
      out.rank = r;
      out.ordinal = j.value("device", -1);
      if (!j.value("gpu_uuid", "").empty())
        out.gpu_uuid = j.value("gpu_uuid", "");
    } else if (type == "nccl") {
      nccl_call c;
      c.pid = pid;
      c.stream = j.value("stream", std::uint64_t{0});
      c.op = parse_collective_op(j.value("op", ""));
      c.bytes = j.value("bytes", 0.0);
      c.nranks = j.value("nranks", 0);
      c.t_ns = j.value("t_ns", std::int64_t{0});
      c.peer_wait_ns = j.value("peer_wait_ns", std::int64_t{0});
      out.calls.push_back(c);
    } else if (type == "collective") {
      collective_launch l;
      l.pid = pid;
      l.index = j.value("index", std::int64_t{0});
      l.name = j.value("name", "");
      l.stream = j.value("stream", std::uint64_t{0});
      l.t_ns = j.value("t_ns", std::int64_t{0});
      l.time_s = j.value("time_s", 0.0);
      out.launches.push_back(std::move(l));
    } else if (type == "nvlink") {
      out.nvlink =
          nvlink_traffic{j.value("counter", ""), j.value("why", ""), j.value("tx_bytes", 0.0),
                         j.value("rx_bytes", 0.0), j.value("seconds", 0.0)};
    }
  }
  return out;
}

} // namespace roofkit

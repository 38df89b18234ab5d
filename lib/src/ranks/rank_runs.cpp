// One run per rank of a multi-process job, from each rank's own record log.
#include <algorithm>
#include <cstdlib>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "roofkit/ceilings.hpp"
#include "roofkit/core.hpp"
#include "roofkit/device.hpp"
#include "roofkit/ranks.hpp"

namespace roofkit {

namespace {

using ojson = nlohmann::ordered_json;

std::vector<ceiling> rank_ceilings(const profile_log& log, std::vector<std::string>& notes) {
  auto it = log.device.find("ordinal");
  if (it == log.device.end())
    return {};
  try {
    return theoretical_ceilings(query_device(std::atoi(it->second.c_str())));
  } catch (const error& e) {
    const auto name = log.device.find("name");
    if (name == log.device.end())
      return {};
    if (auto spec = match_gpu(name->second, load_gpu_specs())) {
      notes.push_back(fmt::format("roofs from the {} datasheet (data/gpus.json): the live device "
                                  "query failed ({})",
                                  spec->name, e.what()));
      return theoretical_ceilings(model_from_spec(*spec));
    }
  }
  return {};
}

ojson collectives_json(const std::vector<collective_record>& list) {
  ojson out = ojson::array();
  for (const auto& c : list)
    out.push_back({{"index", c.launch.index},
                   {"name", c.launch.name},
                   {"stream", c.launch.stream},
                   {"time_s", c.launch.time_s},
                   {"op", to_string(c.op)},
                   {"bytes", c.bytes},
                   {"nranks", c.nranks},
                   {"calls", c.calls},
                   {"bus_bytes", c.bus_bytes},
                   {"algbw_bytes_per_s", c.algbw},
                   {"busbw_bytes_per_s", c.busbw}});
  return out;
}

// The GPU's NVLink traffic over the rank's run beside its collectives' bus bytes (a ring
// all-reduce sends its bus bytes from every rank).
ojson nvlink_json(const nvlink_traffic& t, const std::vector<collective_record>& collectives) {
  if (t.counter.empty())
    return {{"counter", ""}, {"why", t.why}};
  double bus = 0;
  double rooted = 0; // broadcast and reduce: the root sends, the others receive
  for (const auto& c : collectives) {
    bus += c.bus_bytes;
    if (c.op == collective_op::broadcast || c.op == collective_op::reduce)
      rooted += c.bus_bytes;
  }
  return {{"counter", t.counter},
          {"scope", "the whole GPU, every process, from the rank's first launch to its exit"},
          {"tx_bytes", t.tx_bytes},
          {"rx_bytes", t.rx_bytes},
          {"seconds", t.seconds},
          {"collective_bus_bytes", bus},
          {"rooted_bus_bytes", rooted},
          {"tx_per_bus_byte", bus > 0 ? ojson(t.tx_bytes / bus) : ojson()}};
}

} // namespace

std::vector<std::pair<int, std::string>> take_rank_logs(const std::string& base, bool remove) {
  std::vector<std::pair<int, std::string>> out;
  if (base.empty())
    return out;
  for (const auto& [rank, path] : find_rank_records(base)) {
    try {
      out.emplace_back(rank, read_text_file(path));
    } catch (const error&) {
    }
    if (remove)
      std::filesystem::remove(path);
    for (const auto& f : profiler_turn::files(path.string())) {
      std::error_code ec;
      std::filesystem::remove(f, ec);
    }
  }
  return out;
}

rank_run build_rank_run(int rank, const std::string& text, profile_run_inputs inputs,
                        const std::vector<ceiling>& measured, const profile_log& launcher_log) {
  rank_run r;
  r.rank = rank;
  r.log = parse_profile_log(text);
  r.log.clock_control = launcher_log.clock_control;
  r.log.clock_note = launcher_log.clock_note;
  r.extra = parse_rank_log(text);
  std::vector<std::string> notes;
  if (inputs.ceilings.empty()) {
    inputs.ceilings = rank_ceilings(r.log, notes);
    if (!measured.empty())
      apply_measured_ceilings(inputs.ceilings, measured);
  }
  r.result = build_profile_run(r.log, inputs);
  for (auto& n : notes)
    r.result.context.notes.push_back(std::move(n));
  if (!r.extra.gpu_uuid.empty())
    r.result.context.gpu_uuid = r.extra.gpu_uuid;
  r.collectives = correlate_collectives(r.extra.calls, r.extra.launches);
  ojson j = ojson::parse(profile_run_json(r.result, r.log, inputs));
  ojson mg = ojson::object();
  const rank_info info = r.extra.rank.value_or(rank_info{rank, -1, 0, ""});
  mg["rank"] = rank;
  mg["local_rank"] = info.local_rank;
  mg["world_size"] = info.world_size;
  mg["rank_source"] = info.source;
  mg["device"] = r.extra.ordinal;
  mg["gpu_uuid"] = r.extra.gpu_uuid;
  mg["status"] = to_string(r.log.finished ? rank_status::ok : rank_status::ended_early);
  mg["nccl_calls"] = r.extra.calls.size();
  std::int64_t waited_ns = 0;
  for (const auto& c : r.extra.calls)
    waited_ns += c.peer_wait_ns;
  mg["nccl_calls_waiting_for_peer_replays_s"] = 1e-9 * static_cast<double>(waited_ns);
  mg["collectives"] = collectives_json(r.collectives);
  if (r.extra.nvlink)
    mg["nvlink"] = nvlink_json(*r.extra.nvlink, r.collectives);
  j["multi_gpu"] = mg;
  r.json = j.dump(2) + '\n';
  return r;
}

} // namespace roofkit

// The interconnect measurements as tables and JSON.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "roofkit/interconnect.hpp"

namespace roofkit {

std::vector<table> interconnect_tables(const interconnect_result& r) {
  table pairs;
  pairs.id = "peer_copies";
  pairs.title = "Peer-to-peer copies (cudaMemcpyPeerAsync, median)";
  pairs.columns = {{"src", "From GPU", "", 0},
                   {"dst", "To GPU", "", 0},
                   {"peer_access", "Peer access"},
                   {"bytes_mib", "Copy", "MiB", 0},
                   {"one_way_gbs", "One way", "GB/s", 1},
                   {"both_ways_gbs", "Both ways", "GB/s", 1}};
  for (const auto& p : r.pairs)
    pairs.rows.push_back({std::int64_t{p.src}, std::int64_t{p.dst}, p.peer_access,
                          p.bytes / 1048576.0, p.one_way_bps / 1e9, p.both_ways_bps / 1e9});
  if (r.theoretical)
    pairs.notes.push_back(fmt::format("theoretical: {:.0f} GB/s per direction, {:.0f} GB/s both "
                                      "ways ({})",
                                      r.theoretical->per_direction_bps / 1e9,
                                      2 * r.theoretical->per_direction_bps / 1e9,
                                      r.theoretical->source));
  table sweep;
  sweep.id = "all_reduce";
  sweep.title = fmt::format("NCCL all-reduce over {} GPUs (float32 sum, nccl-tests' algbw and "
                            "busbw)",
                            r.gpus);
  sweep.columns = {{"bytes", "Size", "B", 0},
                   {"time_us", "Time", "us", 1},
                   {"algbw_gbs", "algbw", "GB/s", 2},
                   {"busbw_gbs", "busbw", "GB/s", 2}};
  for (const auto& p : r.all_reduce)
    sweep.rows.push_back(
        {static_cast<std::int64_t>(p.bytes), p.time_s * 1e6, p.algbw / 1e9, p.busbw / 1e9});
  if (!r.nccl_note.empty())
    sweep.notes.push_back(r.nccl_note);
  else
    sweep.notes.push_back(fmt::format("NCCL {} from {}", r.nccl_version, r.nccl_library));
  return {pairs, sweep};
}

std::string interconnect_json(const interconnect_result& r) {
  using json = nlohmann::ordered_json;
  json j;
  j["gpus"] = r.gpus;
  j["device"] = r.device_name;
  json pairs = json::array();
  for (const auto& p : r.pairs)
    pairs.push_back({{"src", p.src},
                     {"dst", p.dst},
                     {"peer_access", p.peer_access},
                     {"bytes", p.bytes},
                     {"one_way_bytes_per_s", p.one_way_bps},
                     {"both_ways_bytes_per_s", p.both_ways_bps}});
  j["peer_copies"] = pairs;
  json sweep = json::array();
  for (const auto& p : r.all_reduce)
    sweep.push_back({{"bytes", p.bytes},
                     {"time_s", p.time_s},
                     {"algbw_bytes_per_s", p.algbw},
                     {"busbw_bytes_per_s", p.busbw}});
  j["all_reduce"] = sweep;
  j["nccl_library"] = r.nccl_library;
  j["nccl_version"] = r.nccl_version;
  if (!r.nccl_note.empty())
    j["nccl_note"] = r.nccl_note;
  if (r.theoretical)
    j["theoretical_nvlink"] = {{"links", r.theoretical->links},
                               {"per_direction_bytes_per_s", r.theoretical->per_direction_bps},
                               {"source", r.theoretical->source}};
  return j.dump(2) + '\n';
}

} // namespace roofkit

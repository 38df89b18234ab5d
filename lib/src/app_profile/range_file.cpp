// The per-NVTX-range summary read back from a profile's run file (for `report`).
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "roofkit/app_profile.hpp"
#include "roofkit/core.hpp"

namespace roofkit {

std::vector<range_summary> ranges_of_run_file(std::string_view text) {
  const auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("profile") ||
      !j["profile"].contains("ranges"))
    return {};
  std::vector<range_summary> out;
  try {
    for (const auto& e : j["profile"]["ranges"]) {
      range_summary r;
      r.path = e.at("path").get<std::vector<std::string>>();
      r.launches = e.at("launches").get<std::int64_t>();
      r.measured = e.value("measured", std::int64_t{0});
      r.inferred = e.value("inferred", std::int64_t{0});
      r.total_s = e.at("gpu_time_s").get<double>();
      r.share = e.value("gpu_time_share", 0.0);
      r.work_time_s = e.value("work_time_s", 0.0);
      for (const auto& [name, v] : e.at("flops").items())
        if (auto p = parse_precision(name))
          r.flops[*p] = v.get<double>();
      for (const auto& [name, v] : e.at("bytes").items())
        if (auto l = parse_memory_level(name))
          r.bytes[*l] = v.get<double>();
      out.push_back(std::move(r));
    }
  } catch (const nlohmann::json::exception& e) {
    throw runtime_error(fmt::format("profile.ranges of the run file: {}", e.what()));
  }
  return out;
}

} // namespace roofkit

#include "rank_env.hpp"

#include <cstdlib>

#include <fmt/format.h>

#include "roofkit/ranks.hpp"

namespace roofkit::inject {

namespace {

std::optional<rank_info> this_rank() {
  return rank_from_environment([](const char* n) -> const char* { return std::getenv(n); });
}

} // namespace

std::string record_path_for_process(const std::string& base) {
  const auto r = this_rank();
  return base.empty() || !r ? base : rank_record_path(base, r->rank);
}

std::string rank_record(CUdevice dev, long pid) {
  const auto r = this_rank();
  if (!r)
    return {};
  std::string uuid;
  CUuuid id{};
  if (cuDeviceGetUuid_v2(&id, dev) == CUDA_SUCCESS) {
    const auto* b = reinterpret_cast<const unsigned char*>(id.bytes);
    uuid = fmt::format("GPU-{:02x}{:02x}{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-"
                       "{:02x}{:02x}{:02x}{:02x}{:02x}{:02x}",
                       b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11],
                       b[12], b[13], b[14], b[15]);
  }
  return rank_line(*r, pid, static_cast<int>(dev), uuid);
}

} // namespace roofkit::inject

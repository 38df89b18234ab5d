// Facts of this machine and moment that every results file records.
#include <chrono>
#include <ctime>
#include <fstream>

#include <fmt/format.h>
#include <unistd.h>

#include "roofkit/core.hpp"

namespace roofkit {

std::string utc_timestamp() {
  const auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", tm.tm_year + 1900, tm.tm_mon + 1,
                     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

std::string host_name() {
  char buf[256] = {};
  return gethostname(buf, sizeof buf - 1) == 0 ? std::string(buf) : std::string("unknown");
}

std::string machine_id() {
  std::ifstream in("/etc/machine-id");
  std::string id;
  if (!(in >> id))
    return {};
  return id;
}

std::string format_gpu_uuid(const unsigned char (&bytes)[16]) {
  std::string out = "GPU-";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10)
      out += '-';
    out += fmt::format("{:02x}", bytes[i]);
  }
  return out;
}

std::string format_gpu_uuid(const char (&bytes)[16]) {
  unsigned char u[16];
  for (int i = 0; i < 16; ++i)
    u[i] = static_cast<unsigned char>(bytes[i]);
  return format_gpu_uuid(u);
}

} // namespace roofkit

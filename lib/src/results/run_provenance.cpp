// Where a run comes from, in words: shown above every report so a recorded run is never
// mistaken for a measurement on this machine.
#include <array>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include <fmt/format.h>
#include <unistd.h>

#include "roofkit/results.hpp"

namespace roofkit {

namespace {

std::string this_host() {
  std::array<char, 256> name{};
  if (gethostname(name.data(), name.size() - 1) != 0)
    return {};
  return name.data();
}

std::string device_of(const run_context& c) {
  return c.device_name.empty() ? std::string("an unnamed GPU") : c.device_name;
}

std::string date_of(const run_context& c) {
  if (c.date.empty())
    return "an unrecorded date";
  return c.date.size() >= 10 && c.date[4] == '-' && c.date[7] == '-' ? c.date.substr(0, 10)
                                                                     : c.date;
}

std::string mhz(double v) { return v > 0 ? fmt::format("{:.0f} MHz", v) : "not recorded"; }

} // namespace

bool run_is_from_elsewhere(const run& r, bool recorded) {
  if (recorded || r.context.origin == run_origin::recorded)
    return true;
  return !r.context.host.empty() && r.context.host != this_host();
}

std::string provenance_line(const run& r, bool recorded) {
  const run_context& c = r.context;
  const bool elsewhere = run_is_from_elsewhere(r, recorded);
  const std::string device = device_of(c);
  const std::string date = date_of(c);
  const std::string not_here = elsewhere ? " - not measured on this machine" : "";
  switch (c.origin) {
  case run_origin::analytical:
    return fmt::format("Analytical run for {} on {}: declared FLOPs and bytes with kernel times, "
                       "no hardware counters{}",
                       device, date, not_here);
  case run_origin::imported:
    return fmt::format("Imported from Nsight Compute: {} on {}{}", device, date, not_here);
  case run_origin::recorded:
    return fmt::format("Recorded run from {} on {} - not measured on this machine", device, date);
  case run_origin::timing_only:
    return fmt::format("TIMING ONLY on {} on {}: kernels verified and timed, no hardware counters "
                       "(not placed on the roofline){}",
                       device, date, not_here);
  case run_origin::measured:
    break;
  }
  if (elsewhere)
    return fmt::format("Recorded run from {} on {}{}{}", device, date,
                       c.host.empty() ? "" : " (host " + c.host + ")", not_here);
  if (c.host.empty())
    return fmt::format("Measured on {} on {}; the run does not name its host, so it may not be "
                       "this machine",
                       device, date);
  return fmt::format("Measured on {} on {} (this machine)", device, date);
}

std::string clocks_line(const run& r) {
  std::string line = fmt::format("Clocks during the run: SM {}, memory {}",
                                 mhz(r.context.sm_clock_mhz), mhz(r.context.mem_clock_mhz));
  if (r.ceilings.empty())
    return line + "; no ceilings in the run";
  // One clause per source: "theoretical roofs at SM 1980 MHz (1830 MHz for some), memory ...".
  for (ceiling_source source : {ceiling_source::theoretical, ceiling_source::measured}) {
    std::set<double> sm, mem;
    for (const auto& c : r.ceilings)
      if (c.source == source) {
        if (c.sm_clock_mhz > 0)
          sm.insert(c.sm_clock_mhz);
        if (c.mem_clock_mhz > 0)
          mem.insert(c.mem_clock_mhz);
      }
    if (sm.empty() && mem.empty())
      continue;
    auto list = [](const std::set<double>& v) {
      std::string out;
      for (double x : v)
        out += (out.empty() ? "" : " or ") + mhz(x);
      return out.empty() ? std::string("n/a") : out;
    };
    line += fmt::format("; {} roofs at SM {}, memory {}", to_string(source), list(sm), list(mem));
  }
  return line;
}

} // namespace roofkit

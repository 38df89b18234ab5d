// Where a run comes from, in words: shown above every report so a recorded run is never
// mistaken for a measurement on this machine.
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "roofkit/core.hpp"
#include "roofkit/results.hpp"

namespace roofkit {

namespace {

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

const machine_identity& this_machine() {
  static const machine_identity here{machine_id(), visible_gpu_uuids()};
  return here;
}

bool run_is_from_elsewhere(const run& r, bool recorded, const machine_identity& here) {
  if (recorded || r.context.origin == run_origin::recorded)
    return true;
  const run_context& c = r.context;
  if (!c.gpu_uuid.empty())
    return std::find(here.gpu_uuids.begin(), here.gpu_uuids.end(), c.gpu_uuid) ==
           here.gpu_uuids.end();
  return c.machine_id.empty() || c.machine_id != here.machine_id;
}

bool run_is_from_elsewhere(const run& r, bool recorded) {
  return run_is_from_elsewhere(r, recorded, this_machine());
}

std::string provenance_line(const run& r, bool recorded) {
  return provenance_line(r, recorded, this_machine());
}

std::string provenance_line(const run& r, bool recorded, const machine_identity& here) {
  const run_context& c = r.context;
  const bool elsewhere = run_is_from_elsewhere(r, recorded, here);
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
    return fmt::format("Recorded on {}, GPU {}, on {}{}",
                       c.host.empty() ? std::string("an unnamed host") : c.host, device, date,
                       not_here);
  return fmt::format("Measured on {} on {} (this machine)", device, date);
}

namespace {

bool is_tensor(precision p) {
  return p == precision::tensor_fp64 || p == precision::tensor_tf32 ||
         p == precision::tensor_fp16 || p == precision::tensor_fp8 || p == precision::tensor_int8;
}

// Clocks rounded to whole MHz and deduplicated: "1980 MHz", or a range "1807-1811 MHz".
std::string clock_span(const std::vector<double>& clocks) {
  std::set<long> v;
  for (double x : clocks)
    if (x > 0)
      v.insert(std::lround(x));
  if (v.empty())
    return {};
  if (v.size() == 1)
    return fmt::format("{} MHz", *v.begin());
  return fmt::format("{}-{} MHz", *v.begin(), *v.rbegin());
}

// One SM clock per roof group (CUDA cores, tensor cores, caches) and one memory clock, of the
// roofs of one source; "" when none of them names a clock.
std::string source_clocks(const run& r, ceiling_source source) {
  std::vector<double> cuda_cores, tensor, caches, memory;
  for (const auto& c : r.ceilings) {
    if (c.source != source)
      continue;
    if (!c.is_memory)
      (is_tensor(c.prec) ? tensor : cuda_cores).push_back(c.sm_clock_mhz);
    else if (c.level != memory_level::dram)
      caches.push_back(c.sm_clock_mhz);
    memory.push_back(c.mem_clock_mhz);
  }
  const std::array<std::pair<const char*, std::string>, 3> groups{
      {{"CUDA cores", clock_span(cuda_cores)},
       {"tensor cores", clock_span(tensor)},
       {"L1/L2", clock_span(caches)}}};
  std::string sm, all_same;
  bool same = true;
  for (const auto& [name, span] : groups) {
    if (span.empty())
      continue;
    same = same && (all_same.empty() || all_same == span);
    all_same = span;
    sm += fmt::format("{}{} ({})", sm.empty() ? "" : ", ", span, name);
  }
  std::string out;
  if (!sm.empty())
    out = "SM " + (same ? all_same : sm);
  if (const std::string mem = clock_span(memory); !mem.empty())
    out += (out.empty() ? "memory " : ", memory ") + mem;
  return out.empty() ? out : fmt::format("; {} roofs at {}", to_string(source), out);
}

} // namespace

std::string clocks_line(const run& r) {
  std::string line = fmt::format("Clocks during the run: SM {}, memory {}",
                                 mhz(r.context.sm_clock_mhz), mhz(r.context.mem_clock_mhz));
  if (r.ceilings.empty())
    return line + "; no ceilings in the run";
  for (ceiling_source source : {ceiling_source::theoretical, ceiling_source::measured})
    line += source_clocks(r, source);
  return line;
}

} // namespace roofkit

// From metric values to roofline quantities: FLOPs per precision, bytes per level, clocks.
#include "roofkit/profiler.hpp"

namespace roofkit {

roofline_counts derive_roofline_counts(const resolved_set& set,
                                       const std::map<std::string, double>& values) {
  roofline_counts c;
  for (const auto& d : set.dropped)
    if (!d.spec.optional)
      c.missing.push_back(d.spec.key);
  for (const auto& m : set.metrics) {
    const auto it = values.find(m.name);
    if (it == values.end()) {
      c.missing.push_back(m.spec.key);
      continue;
    }
    const double v = it->second;
    switch (m.spec.role) {
    case metric_role::flops:
      if (v != 0)
        c.flops[m.spec.prec] += v * m.spec.weight;
      break;
    case metric_role::bytes:
      c.bytes[m.spec.level] += v * m.spec.weight;
      if (m.spec.key == "dram_read")
        c.dram_read_bytes = v;
      else if (m.spec.key == "dram_write")
        c.dram_write_bytes = v;
      break;
    case metric_role::time:
      c.time_s = v * 1e-9;
      break;
    case metric_role::sm_cycles:
      c.sm_cycles = v;
      break;
    case metric_role::sm_clock:
      c.sm_clock_hz = v;
      break;
    case metric_role::dram_clock:
      c.dram_clock_hz = v;
      break;
    case metric_role::occupancy:
      c.achieved_occupancy = v / 100.0;
      break;
    case metric_role::count:
      break;
    }
  }
  return c;
}

void apply_counts(const roofline_counts& counts, const std::map<std::string, double>& raw,
                  kernel_result& k) {
  k.flops = counts.flops;
  k.bytes = counts.bytes;
  if (counts.achieved_occupancy)
    k.occupancy_achieved = counts.achieved_occupancy;
  if (counts.sm_clock_hz > 0)
    k.sm_clock_mhz = counts.sm_clock_hz * 1e-6;
  if (counts.dram_clock_hz > 0)
    k.mem_clock_mhz = counts.dram_clock_hz * 1e-6;
  if (counts.time_s > 0)
    k.gpu_time_s = counts.time_s;
  for (const auto& [name, value] : raw)
    k.counters[name] = value;
  k.source = work_source::counters;
}

} // namespace roofkit

// The measured ceilings and the sweep plateaus as printer tables.
#include <fmt/format.h>

#include "roofkit/ceilings.hpp"

namespace roofkit {

namespace {

cell optional_number(double v) { return v > 0 ? cell(v) : cell(std::monostate{}); }

std::string roof_key(const ceiling_measurement& m) {
  if (m.level)
    return to_string(*m.level);
  if (m.prec)
    return to_string(*m.prec);
  return "";
}

} // namespace

table measured_ceilings_table(const ceilings_result& result) {
  table t;
  t.id = "ceilings_measured";
  t.title = "Measured ceilings and references";
  t.columns = {{"name", "Measurement"},
               {"roof", "Roof"},
               {"value", "Median rate", "", 1},
               {"unit", "Unit"},
               {"theoretical", "Theoretical", "", 1},
               {"pct_of_theoretical", "% of theoretical", "%", 1},
               {"sm_clock_mhz", "SM clock", "MHz", 0},
               {"pct_at_clock", "% at this clock", "%", 1},
               {"sustained", "Sustained rate", "", 1},
               {"sustained_sm_clock_mhz", "Sustained clock", "MHz", 0},
               {"check", "Check"},
               {"method", "Method"}};
  for (const auto& m : result.measurements) {
    const bool bytes = m.unit == "B/s";
    const double scale = bytes ? 1e9 : 1e12;
    const std::string unit = bytes ? "GB/s" : (m.unit == "OP/s" ? "TOP/s" : "TFLOP/s");
    // The theoretical roof scaled to the SM clock seen in this measurement (compute and the
    // on-chip levels; DRAM's roof does not follow the SM clock).
    double at_clock = 0;
    if (m.theoretical > 0 && m.sm_clock_mhz > 0 && m.theoretical_clock_mhz > 0 &&
        !(m.level && *m.level == memory_level::dram))
      at_clock = m.theoretical * m.sm_clock_mhz / m.theoretical_clock_mhz;
    t.rows.push_back(
        {m.name, roof_key(m), m.value / scale, unit,
         m.theoretical > 0 ? cell(m.theoretical / scale) : cell(std::monostate{}),
         m.theoretical > 0 ? cell(100 * m.value / m.theoretical) : cell(std::monostate{}),
         optional_number(m.sm_clock_mhz),
         at_clock > 0 ? cell(100 * m.value / at_clock) : cell(std::monostate{}),
         m.sustained_value > 0 ? cell(m.sustained_value / scale) : cell(std::monostate{}),
         optional_number(m.sustained_sm_clock_mhz), m.check, m.method});
  }
  t.notes.push_back(fmt::format(
      "SM clock: sampled in each kernel (clock64 against %globaltimer, block 0, last timed "
      "launch); after all runs {:.0f} MHz ({}). Measured in {:.1f} s.",
      result.sm_clock_mhz, result.sm_clock_method, result.elapsed_s));
  return t;
}

table plateaus_table(const ceilings_result& result) {
  table t;
  t.id = "ceilings_plateaus";
  t.title = "Working-set sweeps: plateaus (time = latency + bytes / bandwidth)";
  t.columns = {{"sweep", "Sweep"},
               {"bandwidth_gbs", "Bandwidth", "GB/s", 0},
               {"working_set_min_mib", "From", "MiB", 3},
               {"working_set_max_mib", "To", "MiB", 3},
               {"latency_us", "Latency", "us", 1},
               {"points", "Launches", "", 0},
               {"rms_residual_pct", "RMS residual", "%", 1},
               {"sm_clock_mhz", "SM clock", "MHz", 0}};
  for (const auto& s : result.sweeps)
    for (const auto& p : s.plateaus)
      t.rows.push_back({s.name, p.bandwidth / 1e9, p.working_set_min / (1024.0 * 1024),
                        p.working_set_max / (1024.0 * 1024), p.latency_s * 1e6,
                        std::int64_t{p.points}, 100 * p.rms_relative_residual,
                        optional_number(s.sm_clock_mhz)});
  return t;
}

} // namespace roofkit

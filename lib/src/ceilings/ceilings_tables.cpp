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

table comparison_table(const ceilings_result& result) {
  table t;
  t.id = "ceilings_vs_references";
  t.title = "Measured roofs against theory at their own clock and against the references";
  t.columns = {{"roof", "Roof"},
               {"value", "Measured", "", 1},
               {"unit", "Unit"},
               {"sm_clock_mhz", "SM clock", "MHz", 0},
               {"pct_at_clock", "% of theoretical at this clock", "%", 1},
               {"reference", "Reference"},
               {"reference_value", "Reference rate", "", 1},
               {"reference_sm_clock_mhz", "Ref. clock", "MHz", 0},
               {"ratio", "Roof / reference", "", 3}};
  for (const auto& c : result.ceilings) {
    const double scale = c.is_memory ? 1e9 : 1e12;
    const std::string unit =
        c.is_memory ? "GB/s" : (c.prec == precision::tensor_int8 ? "TOP/s" : "TFLOP/s");
    double at_clock = 0;
    const ceiling_measurement* ref = nullptr;
    for (const auto& m : result.measurements) {
      const bool same =
          c.is_memory ? (m.level && *m.level == c.level) : (m.prec && *m.prec == c.prec);
      if (!same || m.check != "ok")
        continue;
      if (m.reference) {
        if (!ref || m.value > ref->value)
          ref = &m;
      } else if (at_clock == 0 && m.theoretical > 0 && m.theoretical_clock_mhz > 0 &&
                 c.sm_clock_mhz > 0 && !(c.is_memory && c.level == memory_level::dram)) {
        at_clock = m.theoretical * c.sm_clock_mhz / m.theoretical_clock_mhz;
      }
    }
    t.rows.push_back({c.is_memory ? to_string(c.level) : to_string(c.prec), c.value / scale, unit,
                      optional_number(c.sm_clock_mhz),
                      at_clock > 0 ? cell(100 * c.value / at_clock) : cell(std::monostate{}),
                      ref ? cell(ref->name) : cell(std::monostate{}),
                      ref ? cell(ref->value / scale) : cell(std::monostate{}),
                      ref ? optional_number(ref->sm_clock_mhz) : cell(std::monostate{}),
                      ref && ref->value > 0 ? cell(c.value / ref->value) : cell(std::monostate{})});
  }
  t.notes.push_back("Targets on an H100 (issue 11): DRAM >= 3200 GB/s and >= cudaMemcpy; L2 >= "
                    "8.0 TB/s; L1/shared >= 32 TB/s; FMA >= 97% at its clock; tensor roofs >= "
                    "the GEMM of the same precision (reference clocks: probe right after).");
  return t;
}

} // namespace roofkit

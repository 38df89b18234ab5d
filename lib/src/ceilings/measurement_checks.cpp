// What no measurement may show: a clock above the GPU's maximum, or a rate above theory at that
// maximum clock. Either is a measurement error (a time source that under-measures, work counted
// twice), rejected with its reason and never taken as a roof.
#include <fmt/format.h>

#include "roofkit/ceilings.hpp"

namespace roofkit {

namespace {

constexpr double reading_tolerance = 1.01;

std::string clock_error(double mhz, double max_mhz, const char* which) {
  return fmt::format("measurement error: {} SM clock {:.0f} MHz is above this GPU's maximum "
                     "{:.0f} MHz (the time source under-measures)",
                     which, mhz, max_mhz);
}

// The theoretical roof at the maximum SM clock (DRAM does not follow the SM clock); 0: none.
double theory_at_max_clock(const ceiling_measurement& m, double max_mhz) {
  if (!(m.theoretical > 0))
    return 0;
  if ((m.level && *m.level == memory_level::dram) || !(m.theoretical_clock_mhz > 0) ||
      !(max_mhz > 0))
    return m.theoretical;
  return m.theoretical * max_mhz / m.theoretical_clock_mhz;
}

std::string rate_error(double value, double limit, const std::string& unit, const char* which,
                       double max_mhz) {
  return fmt::format("measurement error: {} rate {:.4g} {} is above the theoretical {:.4g} {} at "
                     "the maximum SM clock {:.0f} MHz",
                     which, value, unit, limit, unit, max_mhz);
}

} // namespace

std::size_t reject_above_hardware(std::vector<ceiling_measurement>& measurements,
                                  double max_sm_clock_mhz) {
  std::size_t rejected = 0;
  for (auto& m : measurements) {
    if (m.check != "ok")
      continue;
    std::string why;
    const double limit = theory_at_max_clock(m, max_sm_clock_mhz);
    if (max_sm_clock_mhz > 0 && !m.reference &&
        m.sm_clock_mhz > reading_tolerance * max_sm_clock_mhz)
      why = clock_error(m.sm_clock_mhz, max_sm_clock_mhz, "measured");
    else if (max_sm_clock_mhz > 0 && !m.reference &&
             m.sustained_sm_clock_mhz > reading_tolerance * max_sm_clock_mhz)
      why = clock_error(m.sustained_sm_clock_mhz, max_sm_clock_mhz, "sustained");
    else if (limit > 0 && m.value > reading_tolerance * limit)
      why = rate_error(m.value, limit, m.unit, "median", max_sm_clock_mhz);
    else if (limit > 0 && m.sustained_value > reading_tolerance * limit)
      why = rate_error(m.sustained_value, limit, m.unit, "sustained", max_sm_clock_mhz);
    if (why.empty())
      continue;
    m.check = why;
    ++rejected;
  }
  return rejected;
}

std::vector<std::string> failed_checks(const ceilings_result& result) {
  std::vector<std::string> out;
  for (const auto& m : result.measurements)
    if (m.check != "ok")
      out.push_back(m.name + ": " + m.check);
  return out;
}

} // namespace roofkit

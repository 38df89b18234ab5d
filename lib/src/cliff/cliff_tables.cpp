// Cliff results as tables (points, events) and as the Markdown findings of docs/cliffs.md.
#include <cmath>
#include <sstream>

#include <fmt/format.h>

#include "internal/text_util.hpp"
#include "roofkit/cliff.hpp"

namespace roofkit {

using detail::percent_rounded;

namespace {

cell opt(std::optional<double> v, double scale = 1) {
  if (!v || !std::isfinite(*v))
    return std::monostate{};
  return *v * scale;
}

cell positive(double v, double scale = 1) {
  if (!(v > 0) || !std::isfinite(v))
    return std::monostate{};
  return v * scale;
}

std::string value_text(const cliff_result& r, std::int64_t v) {
  if (r.axis == sweep_axis::smem || r.axis == sweep_axis::size) {
    if (v >= (1 << 30) && v % (1 << 30) == 0)
      return fmt::format("{}G", v >> 30);
    if (v >= (1 << 20) && v % (1 << 20) == 0)
      return fmt::format("{}M", v >> 20);
    if (v >= 1024 && v % 1024 == 0)
      return fmt::format("{}K", v >> 10);
  }
  return std::to_string(v);
}

// Rates in G units: GB/s for bandwidth, GFLOP/s for FLOP/s.
std::string rate_header(const cliff_result& r) {
  return r.rate_unit == "B/s" ? "GB/s" : r.rate_unit == "FLOP/s" ? "GFLOP/s" : r.rate_unit;
}
double rate_scale(const cliff_result& r) {
  return r.rate_unit == "B/s" || r.rate_unit == "FLOP/s" ? 1e-9 : 1.0;
}

// DRAM bytes from the counters over the median time, GB/s.
cell counted_bandwidth(const cliff_point& p) {
  const auto it = p.counted.find("dram_bytes");
  if (it == p.counted.end() || !(p.time_median_s > 0))
    return std::monostate{};
  return it->second / p.time_median_s * 1e-9;
}

} // namespace

table cliff_points_table(const cliff_result& r) {
  table t;
  t.id = "cliff_points";
  t.title = fmt::format("{}: {} sweep", r.kernel, to_string(r.axis));
  t.columns = {{"value", to_string(r.axis), "", 0},
               {"status", "status", "", 0},
               {"grid", "grid", "", 0},
               {"block", "block", "", 0},
               {"dynamic_smem", "dyn smem", "B", 0},
               {"registers", "regs", "", 0},
               {"local_bytes", "local", "B", 0},
               {"spill_stores", "spill st", "B", 0},
               {"active_blocks", "blocks/SM", "", 0},
               {"occupancy_theoretical", "occ pred", "%", 1},
               {"occupancy_achieved", "occ ach", "%", 1},
               {"limiter", "limiter", "", 0},
               {"waves", "waves", "", 2},
               {"time_median", "time", "us", 2},
               {"spread", "spread", "%", 1},
               {"rate", rate_header(r), "", 1},
               {"dram_bandwidth", "DRAM (counted)", "GB/s", 1},
               {"pct_of_roof", "% roof", "%", 1},
               {"bound", "bound", "", 0}};
  for (const auto& p : r.points) {
    t.rows.push_back(
        {value_text(r, p.value), p.status == "ok" ? p.status : p.status + ": " + p.message, p.grid,
         std::int64_t{p.block}, p.dynamic_smem, std::int64_t{p.registers}, p.local_bytes,
         p.spill_stores ? cell{*p.spill_stores} : cell{std::monostate{}},
         std::int64_t{p.active_blocks}, p.occupancy_theoretical * 100,
         opt(p.occupancy_achieved, 100), p.limiter, positive(p.waves),
         positive(p.time_median_s, 1e6),
         p.time_median_s > 0 ? cell{p.spread * 100} : cell{std::monostate{}},
         positive(p.rate, rate_scale(r)), counted_bandwidth(p), positive(p.pct_of_roof), p.bound});
  }
  if (!r.counters_note.empty())
    t.notes.push_back("achieved occupancy not measured: " + r.counters_note);
  return t;
}

table cliff_events_table(const cliff_result& r) {
  table t;
  t.id = "cliff_events";
  t.title = "Predicted steps and measured changes";
  t.columns = {{"at", "at", "", 0},
               {"predicted", "predicted occupancy", "", 0},
               {"measured", "measured " + r.rate_name, "", 0},
               {"verdict", "verdict", "", 0},
               {"cause", "cause", "", 0}};
  for (const auto& e : r.events) {
    const auto& p = r.points.at(e.at);
    std::string at = value_text(r, p.value);
    if (e.change && e.change->from + 1 != e.change->at && !e.step)
      at = value_text(r, r.points.at(e.change->from).value) + "->" + at;
    std::string predicted = "-", measured = "-";
    if (e.step)
      predicted =
          fmt::format("{} -> {} ({} -> {} blocks/SM)", percent_rounded(e.step->before),
                      percent_rounded(e.step->after), e.step->blocks_before, e.step->blocks_after);
    if (e.change)
      measured = fmt::format("{:+.1f}% ({:.4g} -> {:.4g} {})", 100 * e.change->relative,
                             e.change->before * rate_scale(r), e.change->after * rate_scale(r),
                             rate_header(r));
    t.rows.push_back({at, predicted, measured, to_string(e.verdict), e.cause});
    t.highlight.push_back(e.verdict == cliff_verdict::agree);
  }
  t.notes.push_back(fmt::format("a measured change: the rate moves by more than {:.0f}% and by "
                                "more than {:g}x the larger run-to-run spread of the two points",
                                100 * r.options.threshold, r.options.spread_factor));
  return t;
}

std::string cliff_markdown(const cliff_result& r, const std::string& source_file) {
  std::ostringstream md;
  md << fmt::format("### {}: {} sweep ({})\n\n", r.kernel, to_string(r.axis), to_string(r.range));
  auto mhz = [](double v) { return v > 0 ? fmt::format("{:.0f} MHz", v) : "not recorded"; };
  if (r.device.empty())
    md << fmt::format("Prediction for CC {}.{}; the program's GPU is not queried. ", r.cc_major,
                      r.cc_minor);
  else
    md << fmt::format("{} (CC {}.{}, {} SMs), {}; SM clock {} after the sweep, memory clock {}. ",
                      r.device, r.cc_major, r.cc_minor, r.sm_count,
                      r.date.empty() ? "date not recorded" : r.date, mhz(r.sm_clock_mhz),
                      mhz(r.mem_clock_mhz));
  md << fmt::format("Source: `{}`; command: `{}`.\n\n", source_file, r.command);
  if (!r.kernel_description.empty())
    md << "Kernel: " << r.kernel_description << ".\n\n";
  if (!r.counters_note.empty())
    md << "Achieved occupancy not measured: " << r.counters_note << ".\n\n";
  std::size_t agree = 0, predicted_only = 0, measured_only = 0, opposite = 0;
  for (const auto& e : r.events) {
    agree += e.verdict == cliff_verdict::agree;
    predicted_only += e.verdict == cliff_verdict::predicted_only;
    measured_only += e.verdict == cliff_verdict::measured_only;
    opposite += e.verdict == cliff_verdict::opposite;
  }
  md << fmt::format("{} predicted occupancy steps, {} measured changes: {} agree, {} predicted "
                    "only, {} measured only, {} opposite.\n\n",
                    r.steps.size(), r.changes.size(), agree, predicted_only, measured_only,
                    opposite);
  auto print = [&](table t) {
    t.title.clear(); // the section's own heading names it
    std::ostringstream os;
    auto p = make_printer(output_format::markdown, os);
    p->print(t);
    p->finish();
    md << os.str() << "\n";
  };
  print(cliff_events_table(r));
  print(cliff_points_table(r));
  return md.str();
}

} // namespace roofkit

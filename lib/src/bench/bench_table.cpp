#include <cmath>

#include <fmt/format.h>

#include "internal/coalescing_counters.hpp"
#include "roofkit/bench.hpp"

namespace roofkit {

namespace {

using namespace bench_counters;

cell number_or_empty(std::optional<double> v) {
  if (!v || !std::isfinite(*v))
    return std::monostate{};
  return *v;
}

std::optional<double> ratio(const std::map<std::string, double>& c, const char* num,
                            const char* den) {
  const auto n = c.find(num), d = c.find(den);
  if (n == c.end() || d == c.end() || d->second <= 0)
    return std::nullopt;
  return n->second / d->second;
}

} // namespace

table bench_table(const run& r, const std::vector<kernel_placement>& placements) {
  table t;
  t.id = "bench";
  t.title = "Kernels";
  t.columns = {{"kernel", "Kernel"},
               {"status", "Status"},
               {"time_us", "Time", "us", 1},
               {"effective_gbs", "Effective BW", "GB/s", 0},
               {"gflops", "Achieved", "GFLOP/s", 0},
               {"dram_over_minimal", "DRAM / minimal", "x", 2},
               {"ld_sectors_per_request", "Ld sectors/req", "", 1},
               {"st_sectors_per_request", "St sectors/req", "", 1},
               {"bound", "Bound"},
               {"pct_of_roof", "% of roof", "%", 1},
               {"occupancy", "Occupancy theo/achieved", "%"},
               {"source", "Source"}};
  for (std::size_t i = 0; i < r.kernels.size(); ++i) {
    const kernel_result& k = r.kernels[i];
    const kernel_placement* p = i < placements.size() ? &placements[i] : nullptr;
    const double t_s = k.time.median_s;
    std::optional<double> effective, dram_ratio, gflops;
    if (k.minimal_bytes && t_s > 0)
      effective = *k.minimal_bytes / t_s / 1e9;
    if (auto it = k.bytes.find(memory_level::dram); it != k.bytes.end() && k.minimal_bytes &&
                                                    *k.minimal_bytes > 0 &&
                                                    k.source == work_source::counters)
      dram_ratio = it->second / *k.minimal_bytes;
    if (p && p->total_flops > 0 && t_s > 0)
      gflops = p->achieved_flops / 1e9;
    std::string occupancy;
    if (k.occupancy_theoretical)
      occupancy = fmt::format("{:.0f}", *k.occupancy_theoretical * 100);
    if (k.occupancy_achieved)
      occupancy +=
          fmt::format("{}{:.0f}", occupancy.empty() ? "-/" : "/", *k.occupancy_achieved * 100);
    const bool ok = k.status == "ok";
    const std::string status = !ok                    ? "FAILED: " + k.status
                               : k.overhead_dominated ? std::string("ok (launch overhead)")
                                                      : std::string("ok");
    t.rows.push_back({k.name, status, t_s > 0 ? cell(t_s * 1e6) : cell(std::monostate{}),
                      number_or_empty(effective), number_or_empty(gflops),
                      number_or_empty(dram_ratio),
                      number_or_empty(ratio(k.counters, ld_sectors, ld_requests)),
                      number_or_empty(ratio(k.counters, st_sectors, st_requests)),
                      p && ok && !k.bytes.empty() ? p->bound : std::string(),
                      p && ok && p->pct_of_roof > 0 ? cell(p->pct_of_roof) : cell(std::monostate{}),
                      occupancy, to_string(k.source)});
    t.highlight.push_back(!ok);
  }
  t.notes.push_back("Effective BW = the kernel's minimal bytes / median time. DRAM / minimal = "
                    "measured DRAM bytes over the fewest bytes the algorithm must move (1.00 is "
                    "ideal). Sectors/req = 32-byte sectors per global load or store instruction "
                    "(4 is a fully coalesced 4-byte-per-thread warp access).");
  t.notes.push_back("% of roof is measured against the roofs of this run (measured ones where it "
                    "has them) scaled to the SM clock the kernel ran at; above 100 would mean a "
                    "wrong ceiling. \"ok (launch overhead)\": the time per launch is still more "
                    "than 1.5x the kernel's own GPU duration, so its rates are bounds. FLOPs are "
                    "placed in the precisions the kernel's "
                    "algorithm uses; counter FLOPs outside them stay in the raw counters "
                    "(roofkit__unplaced_flops_*), see each kernel's message in the run file.");
  return t;
}

} // namespace roofkit

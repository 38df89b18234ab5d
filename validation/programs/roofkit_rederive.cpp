// roofkit-rederive CHIP IN.json OUT.json [MACHINE.json]: the bytes per level of every
// counter-profiled kernel of a run, derived again from the raw counters stored beside them with
// today's level definitions (the bench's metric set resolved for CHIP offline, through the CUPTI
// host API), and, with a machine file, its measured roofs replaced by the file's. Everything else
// of the run is kept; the context says what was done.
#include <algorithm>
#include <iostream>

#include "roofkit/bench.hpp"
#include "roofkit/ceilings.hpp"
#include "roofkit/core.hpp"
#include "roofkit/profiler.hpp"
#include "roofkit/results.hpp"
#include "roofkit/roofline.hpp"

int main(int argc, char** argv) {
  return roofkit::guarded_main("roofkit-rederive", [&]() -> int {
    if (argc != 4 && argc != 5) {
      std::cerr << "usage: roofkit-rederive CHIP IN.json OUT.json [MACHINE.json]\n";
      return 2;
    }
    const roofkit::cupti_catalog catalog(argv[1]);
    const auto set = roofkit::resolve_metric_set(roofkit::bench_metric_set(), catalog);
    roofkit::run r = roofkit::load_run(argv[2]);
    int changed = 0;
    for (auto& k : r.kernels) {
      if (k.source != roofkit::work_source::counters)
        continue;
      k.bytes = roofkit::derive_roofline_counts(set, k.counters).bytes;
      ++changed;
    }
    r.context.extra["levels"] = "bytes per level re-derived from the stored raw counters by "
                                "roofkit-rederive (docs/metrics.md, bytes per level)";
    if (argc == 5) {
      roofkit::apply_measured_ceilings(r.ceilings, roofkit::load_machine_ceilings(argv[4]));
      r.context.extra["measured roofs"] =
          std::string("from ") + argv[4] + ", the full ceilings run of the same session";
      // A measured memory roof that a kernel of the run beats at its own clock is shown wrong
      // by that kernel: it is dropped (the theoretical roof stays) and the run says so.
      for (auto it = r.ceilings.begin(); it != r.ceilings.end();) {
        if (!it->is_memory || it->source != roofkit::ceiling_source::measured) {
          ++it;
          continue;
        }
        int beaten = 0;
        double best = 0;
        for (const auto& k : r.kernels) {
          if (k.source != roofkit::work_source::counters || !k.bytes.count(it->level))
            continue;
          const auto at = roofkit::ceilings_at_clock({*it}, k.sm_clock_mhz.value_or(0.0));
          const double rate = k.bytes.at(it->level) / k.time.median_s;
          if (k.time.median_s > 0 && rate > at.front().value) {
            ++beaten;
            best = std::max(best, rate / at.front().value);
          }
        }
        if (beaten == 0) {
          ++it;
          continue;
        }
        r.context.extra["measured roof dropped: " + roofkit::to_string(it->level)] =
            std::to_string(beaten) + " kernels of the run beat the measured " +
            roofkit::label(it->level) + " roof (up to " + std::to_string(best) +
            "x): its microbenchmark is below the hardware rate; the theoretical roof is used";
        it = r.ceilings.erase(it);
      }
    }
    roofkit::save_run(argv[3], r);
    std::cerr << "roofkit-rederive: " << changed << " kernels re-derived\n";
    return 0;
  });
}

// Access efficiency findings: global sectors per request, shared-memory bank conflicts, local
// memory (spills).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "diagnosis_internal.hpp"
#include "internal/coalescing_counters.hpp"

namespace roofkit::diag {

namespace {

using bench_counters::ld_requests;
using bench_counters::ld_sectors;
using bench_counters::st_requests;
using bench_counters::st_sectors;

// Shared-memory wavefronts per request: wavefronts / (wavefronts - conflict wavefronts).
std::optional<double> shared_ways(const kernel_result& k, const char* op, double& wavefronts) {
  const auto wf =
      counter(k, fmt::format("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{}.sum", op));
  const auto bc =
      counter(k, fmt::format("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{}.sum", op));
  if (!wf || !bc || *wf <= 0 || *bc >= *wf)
    return std::nullopt;
  wavefronts = *wf;
  return *wf / (*wf - *bc);
}

} // namespace

std::string roof_kind(const kernel_placement& pl) {
  if (pl.compute_bound)
    return "compute";
  if (pl.bound == "l1")
    return "l1_bandwidth";
  if (pl.bound == "l2")
    return "l2_bandwidth";
  return "dram_bandwidth";
}

std::optional<diagnosis_finding> uncoalesced_finding(const kernel_result& k,
                                                     const kernel_placement& pl) {
  (void)pl;
  const double ls = counter(k, ld_sectors).value_or(0), lr = counter(k, ld_requests).value_or(0);
  const double ss = counter(k, st_sectors).value_or(0), sr = counter(k, st_requests).value_or(0);
  if (lr + sr <= 0 || ls + ss <= 0)
    return std::nullopt;
  const double spr = (ls + ss) / (lr + sr);
  // The ideal: one sector per 32 bytes a warp asks for. The bytes per thread and request come
  // from the algorithm's minimal bytes when known (at least 4: 4-byte elements).
  double ideal = 0;
  bool from_minimal = false;
  if (k.minimal_bytes && *k.minimal_bytes > 0) {
    ideal = std::clamp(*k.minimal_bytes / ((lr + sr) * 32.0), 4.0, 16.0);
    from_minimal = true;
  } else if (spr > 16) {
    ideal = 16; // no access width gives more than 16 sectors per fully used request
  } else {
    return std::nullopt;
  }
  const double waste = spr / ideal;
  if (waste < 1.3)
    return std::nullopt;
  diagnosis_finding f;
  f.kind = "uncoalesced_access";
  f.gain = 1 - 1 / waste;
  const double spr_ld = lr > 0 ? ls / lr : 0, spr_st = sr > 0 ? ss / sr : 0;
  f.text = fmt::format("global accesses move {:.1f} sectors per request (loads {:.1f}, stores "
                       "{:.1f}) where {:.0f} would do{}: {:.1f}x the traffic needed",
                       spr, spr_ld, spr_st, ideal,
                       from_minimal ? "" : " at best (16-byte accesses)", waste);
  f.evidence = {{"sectors_per_request", spr},
                {"sectors_per_request_ld", spr_ld},
                {"sectors_per_request_st", spr_st},
                {"ideal_sectors_per_request", ideal},
                {"excess_traffic", waste}};
  if (const auto* dram = level_of(pl, memory_level::dram); dram && k.minimal_bytes)
    f.evidence["dram_bytes_over_minimal"] = dram->bytes / *k.minimal_bytes;
  return f;
}

std::optional<diagnosis_finding> bank_conflict_finding(const kernel_result& k,
                                                       const kernel_placement& pl) {
  double wf_ld = 0, wf_st = 0;
  const auto ld = shared_ways(k, "ld", wf_ld);
  const auto st = shared_ways(k, "st", wf_st);
  const double ways = std::max(ld.value_or(1), st.value_or(1));
  if (ways < 1.5)
    return std::nullopt;
  const auto* l1 = level_of(pl, memory_level::l1);
  const double busy = l1 && l1->has_ceiling ? std::min(1.0, l1->utilisation) : 0.5;
  // Extra wavefronts over all of them: the share of shared-memory time the conflicts take.
  const double wf = wf_ld + wf_st;
  const double extra = (wf_ld - (ld ? wf_ld / *ld : wf_ld)) + (wf_st - (st ? wf_st / *st : wf_st));
  diagnosis_finding f;
  f.kind = "bank_conflicts";
  f.gain = wf > 0 ? busy * extra / wf : 0;
  f.text = fmt::format("shared-memory accesses take {:.1f} wavefronts per request ({:.0f}-way "
                       "bank conflicts; loads {:.1f}, stores {:.1f}) where 1 would do",
                       ways, std::round(ways), ld.value_or(1), st.value_or(1));
  f.evidence = {{"ways", ways},
                {"wavefronts_per_request_ld", ld.value_or(1)},
                {"wavefronts_per_request_st", st.value_or(1)},
                {"l1_utilisation", busy}};
  return f;
}

std::optional<diagnosis_finding> local_memory_finding(const kernel_result& k,
                                                      const kernel_placement& pl) {
  const double per_thread = counter(k, "roofkit__local_bytes_per_thread").value_or(0);
  if (per_thread <= 0)
    return std::nullopt;
  const double global_bytes =
      32 * (counter(k, ld_sectors).value_or(0) + counter(k, st_sectors).value_or(0));
  const auto* l1 = level_of(pl, memory_level::l1);
  const double share =
      l1 && l1->bytes > global_bytes && global_bytes > 0 ? 1 - global_bytes / l1->bytes : 0;
  diagnosis_finding f;
  f.kind = "local_memory";
  f.gain = std::min(share, gap_of(pl));
  f.text = fmt::format("{:.0f} bytes of local memory per thread (register spills or local "
                       "arrays){}",
                       per_thread,
                       share > 0 ? fmt::format(": {:.0f}% of the L1 traffic is not the kernel's "
                                               "global data",
                                               100 * share)
                                 : std::string());
  f.evidence = {{"local_bytes_per_thread", per_thread}, {"local_share_of_l1_bytes", share}};
  if (f.gain < min_gain)
    f.gain = min_gain; // spills are always worth a line
  return f;
}

} // namespace roofkit::diag

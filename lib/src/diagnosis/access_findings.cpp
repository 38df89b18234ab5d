// Access efficiency findings: global sectors per request, shared-memory bank conflicts, local
// memory (spills).
#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "diagnosis_internal.hpp"
#include "internal/coalescing_counters.hpp"

namespace roofkit::diag {

namespace {

using bench_counters::ld_bytes;
using bench_counters::ld_requests;
using bench_counters::ld_sectors;
using bench_counters::ldgsts_bytes;
using bench_counters::ldgsts_requests;
using bench_counters::ldgsts_sectors;
using bench_counters::st_bytes;
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

namespace {

// What a coalesced access would need, best known first: the bytes the threads asked for,
// counted per instruction (SASS counters: one sector per 32 bytes, at least one per request,
// whatever the access width); else the algorithm's minimal bytes (4 to 16 sectors per request);
// else 16 sectors per request (16-byte accesses, the widest) once a request moves more than 16,
// which no access width does when coalesced.
enum class ideal_basis { bytes_asked, minimal_bytes, widest_access };

const char* basis_name(ideal_basis b) {
  switch (b) {
  case ideal_basis::bytes_asked:
    return "bytes_asked";
  case ideal_basis::minimal_bytes:
    return "minimal_bytes";
  default:
    return "widest_access";
  }
}

// One direction (loads or stores) of global accesses: sectors per request against the ideal.
struct access_side {
  double sectors = 0, requests = 0, bytes = 0, ideal = 0;
  double per_request() const { return requests > 0 ? sectors / requests : 0; }
  double excess() const { return ideal > 0 ? std::max(0.0, sectors - ideal * requests) : 0; }
};

access_side side_of(const kernel_result& k, const char* sectors, const char* requests,
                    const char* bytes, ideal_basis basis, double from_minimal) {
  access_side a{counter(k, sectors).value_or(0), counter(k, requests).value_or(0),
                counter(k, bytes).value_or(0), 0};
  if (a.requests <= 0 || a.sectors <= 0)
    return a;
  if (basis == ideal_basis::bytes_asked)
    a.ideal = std::max(1.0, a.bytes / 32 / a.requests);
  else if (basis == ideal_basis::minimal_bytes)
    a.ideal = from_minimal;
  else if (a.per_request() > 16)
    a.ideal = 16;
  return a;
}

ideal_basis basis_of(const kernel_result& k) {
  if (counter(k, ld_bytes) && counter(k, st_bytes))
    return ideal_basis::bytes_asked;
  return k.minimal_bytes && *k.minimal_bytes > 0 ? ideal_basis::minimal_bytes
                                                 : ideal_basis::widest_access;
}

std::string ideal_words(ideal_basis b) {
  if (b == ideal_basis::bytes_asked)
    return " for the bytes its threads ask for";
  return b == ideal_basis::widest_access ? " at best (16-byte accesses)" : "";
}

struct named_side {
  const char* key;  // evidence suffix
  const char* what; // in the text
  access_side side;
};

// Loads and stores; with the bytes asked, cp.async loads (LDGSTS) too where the kernel has them.
std::vector<named_side> sides_of(const kernel_result& k, ideal_basis basis) {
  const double lr = counter(k, ld_requests).value_or(0), sr = counter(k, st_requests).value_or(0);
  const double from_minimal = basis == ideal_basis::minimal_bytes && lr + sr > 0
                                  ? std::clamp(*k.minimal_bytes / ((lr + sr) * 32.0), 4.0, 16.0)
                                  : 0;
  std::vector<named_side> out{
      {"ld", "loads", side_of(k, ld_sectors, ld_requests, ld_bytes, basis, from_minimal)},
      {"st", "stores", side_of(k, st_sectors, st_requests, st_bytes, basis, from_minimal)}};
  if (basis == ideal_basis::bytes_asked)
    if (const auto a = side_of(k, ldgsts_sectors, ldgsts_requests, ldgsts_bytes, basis, 0);
        a.requests > 0)
      out.push_back({"ldgsts", "cp.async", a});
  return out;
}

void add_bytes_per_sector(diagnosis_finding& f, const std::vector<named_side>& sides) {
  double bytes = 0, sectors = 0;
  for (const auto& s : sides) {
    bytes += s.side.bytes;
    sectors += s.side.sectors;
    if (s.side.sectors > 0)
      f.evidence[fmt::format("bytes_used_per_sector_{}", s.key)] = s.side.bytes / s.side.sectors;
  }
  f.evidence["bytes_used_per_sector"] = bytes / sectors;
}

} // namespace

std::optional<diagnosis_finding> uncoalesced_finding(const kernel_result& k,
                                                     const kernel_placement& pl) {
  const ideal_basis basis = basis_of(k);
  const auto sides = sides_of(k, basis);
  double sectors = 0, excess = 0, requests = 0;
  std::vector<std::string> parts;
  for (const auto& s : sides) {
    sectors += s.side.sectors;
    excess += s.side.excess();
    requests += s.side.requests;
    parts.push_back(fmt::format("{} {:.1f}", s.what, s.side.per_request()));
  }
  if (sectors <= 0 || excess / sectors < 1 - 1 / 1.3)
    return std::nullopt;
  diagnosis_finding f;
  f.kind = "uncoalesced_access";
  f.gain = excess / sectors; // the share of the sectors no thread asked for
  const double spr = sectors / requests, ideal = (sectors - excess) / requests;
  f.text = fmt::format("global accesses move {:.1f} sectors per request ({}) where {:.1f} would "
                       "do{}: {:.0f}% of the sectors are not used",
                       spr, fmt::join(parts, ", "), ideal, ideal_words(basis), 100 * f.gain);
  f.evidence = {{"sectors_per_request", spr},
                {"ideal_sectors_per_request", ideal},
                {"excess_traffic", sectors / (sectors - excess)}};
  for (const auto& s : sides)
    f.evidence[fmt::format("sectors_per_request_{}", s.key)] = s.side.per_request();
  f.evidence_text["ideal_from"] = basis_name(basis);
  if (basis == ideal_basis::bytes_asked)
    add_bytes_per_sector(f, sides);
  if (const auto* dram = find_level(pl, memory_level::dram); dram && k.minimal_bytes)
    f.evidence["dram_bytes_over_minimal"] = dram->bytes / *k.minimal_bytes;
  return f;
}

std::optional<diagnosis_finding> bank_conflict_finding(const kernel_result& k,
                                                       const kernel_placement& pl) {
  double wf_ld = 0, wf_st = 0;
  const auto ld = shared_ways(k, "ld", wf_ld);
  const auto st = shared_ways(k, "st", wf_st);
  const double wf = wf_ld + wf_st;
  // Wavefronts a conflict-free access would not need, over all of them: each one is a replay
  // of the access, issued one after the other (an upper bound of the time they cost).
  const double extra = (wf_ld - (ld ? wf_ld / *ld : wf_ld)) + (wf_st - (st ? wf_st / *st : wf_st));
  if (wf <= 0 || extra / wf < min_conflict_share)
    return std::nullopt;
  const double ways = std::max(ld.value_or(1), st.value_or(1));
  const auto* l1 = find_level(pl, memory_level::l1);
  diagnosis_finding f;
  f.kind = "bank_conflicts";
  f.gain = extra / wf;
  f.text = fmt::format("shared-memory accesses take {:.1f} wavefronts per request ({:.0f}-way "
                       "bank conflicts; loads {:.1f}, stores {:.1f}) where 1 would do: {:.0f}% "
                       "of the wavefronts are replays",
                       ways, std::round(ways), ld.value_or(1), st.value_or(1), 100 * f.gain);
  f.evidence = {{"ways", ways},
                {"wavefronts_per_request_ld", ld.value_or(1)},
                {"wavefronts_per_request_st", st.value_or(1)},
                {"excess_wavefront_share", f.gain}};
  if (l1 && l1->has_ceiling)
    f.evidence["l1_utilisation"] = l1->utilisation;
  return f;
}

std::optional<diagnosis_finding> local_memory_finding(const kernel_result& k,
                                                      const kernel_placement& pl) {
  const double per_thread = counter(k, "roofkit__local_bytes_per_thread").value_or(0);
  if (per_thread <= 0)
    return std::nullopt;
  const double global_bytes =
      32 * (counter(k, ld_sectors).value_or(0) + counter(k, st_sectors).value_or(0));
  const auto* l1 = find_level(pl, memory_level::l1);
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

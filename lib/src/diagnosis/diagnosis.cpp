// A diagnosis per kernel: bound and gap, occupancy and its cliff, Little's law, waves, access
// efficiency, local memory; ranked by the time each could save (docs/diagnosis.md).
#include "roofkit/diagnosis.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "diagnosis_internal.hpp"
#include "roofkit/arch.hpp"
#include "roofkit/occupancy.hpp"

namespace roofkit {

namespace diag {

std::optional<double> counter(const kernel_result& k, const std::string& name) {
  if (const auto it = k.counters.find(name); it != k.counters.end() && std::isfinite(it->second))
    return it->second;
  return std::nullopt;
}

double gap_of(const kernel_placement& pl) {
  return std::clamp(1.0 - pl.pct_of_roof / 100.0, 0.0, 1.0);
}

int registers_of(const kernel_result& k) {
  if (k.launch.registers_per_thread > 0)
    return static_cast<int>(k.launch.registers_per_thread);
  if (const auto r = counter(k, "roofkit__registers"); r && *r > 0)
    return static_cast<int>(*r);
  return 0;
}

double kernel_time(const kernel_result& k) {
  if (k.gpu_time_s && *k.gpu_time_s > 0)
    return *k.gpu_time_s;
  return k.time.median_s;
}

} // namespace diag

namespace {

using namespace diag;

// Near a roof: little to gain other than moving fewer bytes (or doing less work).
std::optional<diagnosis_finding> near_roof_finding(const kernel_placement& pl) {
  if (pl.pct_of_roof < near_roof_pct)
    return std::nullopt;
  diagnosis_finding f;
  f.kind = roof_kind(pl);
  f.gain = gap_of(pl);
  f.text = fmt::format("at {:.0f}% of the {} roof: little to gain from code changes other than "
                       "{}",
                       pl.pct_of_roof, pl.bound_label,
                       pl.compute_bound ? "doing less work" : "moving fewer bytes");
  f.evidence["pct_of_roof"] = pl.pct_of_roof;
  return f;
}

// Nothing explains a kernel far below every roof.
diagnosis_finding unknown_finding(const kernel_placement& pl) {
  diagnosis_finding f;
  f.kind = "unknown";
  f.gain = gap_of(pl);
  f.text = fmt::format("at {:.0f}% of the {} roof and no counter of this run explains the gap: "
                       "warp-stall sampling (where the warps wait) would tell",
                       pl.pct_of_roof, pl.bound_label);
  f.evidence["pct_of_roof"] = pl.pct_of_roof;
  return f;
}

// The limiter a finding names: its kind, or for warp stalls the wait its samples point to.
std::string limiter_of(const diagnosis_finding& f) {
  return f.kind == "warp_stalls" ? f.evidence_text.at("limiter") : f.kind;
}

// The cause a finding names beside its own kind (a grid too small for the bytes in flight), or "".
std::string cause_named(const diagnosis_finding& f) {
  const auto it = f.evidence_text.find("cause");
  return it == f.evidence_text.end() ? std::string() : it->second;
}

void sort_findings(std::vector<diagnosis_finding>& findings) {
  std::stable_sort(findings.begin(), findings.end(),
                   [](const auto& a, const auto& b) { return a.gain > b.gain; });
}

// The finding that causes a wait, named instead of the wait (it is the thing to change): a
// limited occupancy for too few bytes in flight, wasted sectors for warps waiting on global
// memory, bank conflicts for warps waiting on shared memory; else, for too few bytes in flight
// in a grid of at most one wave, the grid.
std::optional<std::string> cause_of(const std::string& wait,
                                    const std::vector<diagnosis_finding>& findings) {
  for (const auto& o : findings) {
    const bool occupancy = o.kind.rfind("occupancy_", 0) == 0 && o.gain > 0.05;
    if ((wait == "latency_hiding" && occupancy) ||
        (o.gain >= min_limiter_gain &&
         ((wait == "latency_hiding" && o.kind == "uncoalesced_access") ||
          (wait == "shared_memory" && o.kind == "bank_conflicts"))))
      return o.kind;
  }
  if (wait == "latency_hiding")
    for (const auto& o : findings)
      if (cause_named(o) == "small_grid")
        return "small_grid";
  return std::nullopt;
}

// The main limiter: the explained finding with most to gain, if it could save at least
// min_limiter_gain, except that a wait with a cause among the findings is named after the cause
// (cause_of). Else the roof the kernel is bound by when it is at bound_pct of it or more, else
// "unknown" (no counter explains the gap).
std::string main_limiter(const std::vector<diagnosis_finding>& findings,
                         const kernel_placement& pl) {
  for (const auto& f : findings) {
    if (f.kind == "unknown" || f.gain < min_limiter_gain)
      continue;
    const std::string wait = f.kind == "warp_stalls" ? limiter_of(f) : f.kind;
    return cause_of(wait, findings).value_or(wait);
  }
  if (pl.pct_of_roof >= bound_pct || findings.empty())
    return roof_kind(pl);
  return findings.front().kind == "unknown" ? "unknown" : roof_kind(pl);
}

std::string try_for(const std::string& limiter) {
  if (limiter == "dram_bandwidth" || limiter == "l2_bandwidth" || limiter == "l1_bandwidth")
    return "Move fewer bytes: fuse with the kernels that read or write the same data, or keep "
           "reused data in shared memory or registers.";
  if (limiter == "compute")
    return "Do less work per result, or use a faster unit (tensor cores, lower precision).";
  if (limiter == "occupancy_registers")
    return "Use fewer registers per thread (__launch_bounds__ or -maxrregcount to the cliff), "
           "or give each thread more independent loads.";
  if (limiter == "occupancy_shared_memory")
    return "Use less shared memory per block (smaller tiles) so more blocks fit on an SM.";
  if (limiter == "occupancy_blocks" || limiter == "occupancy_warps")
    return "Change the block size so more warps reside on an SM.";
  if (limiter == "latency_hiding")
    return "Keep more bytes in flight: wider loads (16 bytes per thread), several independent "
           "loads per thread before their first use, or more resident warps.";
  if (limiter == "uncoalesced_access")
    return "Make neighbouring threads read neighbouring addresses (transpose through shared "
           "memory, structure of arrays, swap the loop order).";
  if (limiter == "bank_conflicts")
    return "Pad the shared-memory array (one extra column) or swizzle its index so a warp's "
           "accesses fall in different banks.";
  if (limiter == "small_grid")
    return "Launch more blocks, at least one full wave (SMs x resident blocks per SM), with less "
           "work per block; or give each thread several independent loads before their first "
           "use.";
  if (limiter == "tail_effect")
    return "Size the grid to a whole number of waves (or use a grid-stride loop over SMs x "
           "blocks per SM).";
  if (limiter == "launch_overhead")
    return "Fuse this kernel with its neighbours, batch its launches or capture them in a CUDA "
           "graph.";
  if (limiter == "memory_instructions")
    return "Issue fewer, wider memory instructions (16 bytes per thread), coalesce them, or "
           "keep reused values in registers or shared memory.";
  if (limiter == "shared_memory")
    return "Ease shared memory: remove bank conflicts (pad or swizzle), use wider shared "
           "accesses, or fewer shared atomics (privatise per warp).";
  if (limiter == "synchronization")
    return "Synchronise less: fewer __syncthreads per tile, more work between barriers, or "
           "warp-level primitives where a block barrier is not needed.";
  if (limiter == "instruction_fetch")
    return "Shrink the hot loop's code (less unrolling or inlining) and avoid divergent "
           "branches.";
  if (limiter == "local_memory")
    return "Remove the spills: fewer live values, constant indices into local arrays, or a "
           "higher register limit.";
  return "Sample warp stalls (Nsight Compute's source view) to see where the warps wait.";
}

std::string verdict_of(const kernel_placement& pl, const std::string& limiter,
                       const std::vector<diagnosis_finding>& findings) {
  const std::string where =
      fmt::format("{}-bound at {:.0f}% of its roof", pl.bound_label, pl.pct_of_roof);
  for (const auto& f : findings)
    if (limiter_of(f) == limiter || cause_named(f) == limiter)
      return where + ": " + f.text;
  return where;
}

} // namespace

std::optional<double> app_time_share(const kernel_result& k) {
  return counter(k, "roofkit__app_gpu_time_share");
}

std::optional<kernel_diagnosis> diagnose_kernel(const run& r, std::size_t index,
                                                const kernel_placement& pl) {
  if (index >= r.kernels.size())
    return std::nullopt;
  const kernel_result& k = r.kernels[index];
  if (pl.failed || pl.bound.empty() || pl.bound == "unknown" || k.status != "ok")
    return std::nullopt;
  kernel_diagnosis d;
  d.bound_roof = pl.bound;
  d.pct_of_roof = pl.pct_of_roof;
  d.sm_clock_mhz = pl.roof_sm_clock_mhz;
  const arch_spec* arch = find_arch(r.context.cc_major, r.context.cc_minor);
  if (arch)
    d.occupancy = occupancy_of(*arch, k);
  std::vector<diagnosis_finding> findings;
  auto add = [&findings](std::optional<diagnosis_finding> f) {
    if (f)
      findings.push_back(std::move(*f));
  };
  add(near_roof_finding(pl));
  add(uncoalesced_finding(k, pl));
  add(bank_conflict_finding(k, pl));
  add(local_memory_finding(k, pl));
  add(stall_finding(k, pl));
  if (arch && d.occupancy) {
    add(occupancy_finding(r, k, *d.occupancy, pl));
    add(latency_finding(r, k, pl, *d.occupancy));
    add(waves_finding(r, k, pl, *d.occupancy));
  }
  findings.erase(std::remove_if(findings.begin(), findings.end(),
                                [](const auto& f) { return f.gain < min_gain; }),
                 findings.end());
  sort_findings(findings);
  const bool sampled = std::any_of(findings.begin(), findings.end(),
                                   [](const auto& f) { return f.kind == "warp_stalls"; });
  if (pl.pct_of_roof < near_roof_pct && !sampled &&
      (findings.empty() || findings.front().gain < 0.5 * gap_of(pl)))
    findings.push_back(unknown_finding(pl));
  sort_findings(findings);
  d.limiter = main_limiter(findings, pl);
  d.verdict = verdict_of(pl, d.limiter, findings);
  d.try_first = try_for(d.limiter);
  d.findings = std::move(findings);
  return d;
}

std::vector<std::optional<kernel_diagnosis>>
diagnose_run(const run& r, const std::vector<kernel_placement>& placements, double min_time_share) {
  std::vector<std::optional<kernel_diagnosis>> out(r.kernels.size());
  for (std::size_t i = 0; i < r.kernels.size() && i < placements.size(); ++i) {
    const auto share = app_time_share(r.kernels[i]);
    if (share && *share < min_time_share)
      continue;
    out[i] = diagnose_kernel(r, i, placements[i]);
  }
  return out;
}

memory_latency dram_latency(int cc_major, int cc_minor) {
  (void)cc_minor;
  // Approximate loaded latencies (pointer-chase microbenchmarks over a working set far larger
  // than L2, plus queueing at high bandwidth); figures of the order published for these GPUs.
  const std::string src = "approximate DRAM latency under load for CC {}.x (pointer-chase "
                          "microbenchmarks of the order published for this family; docs/"
                          "diagnosis.md)";
  if (cc_major >= 10)
    return {700, fmt::format(fmt::runtime(src), cc_major)};
  if (cc_major == 9)
    return {600, fmt::format(fmt::runtime(src), cc_major)};
  if (cc_major == 8)
    return {550, fmt::format(fmt::runtime(src), cc_major)};
  return {500, fmt::format(fmt::runtime(src), cc_major)};
}

} // namespace roofkit

#pragma once
// The finding builders of the diagnosis (diagnosis.cpp ranks them).

#include <optional>
#include <string>

#include "roofkit/arch.hpp"
#include "roofkit/diagnosis.hpp"

namespace roofkit::diag {

inline constexpr double near_roof_pct = 80; ///< at or above: near the roof
inline constexpr double min_gain = 0.02;    ///< findings worth less are dropped
inline constexpr double tail_threshold = 0.10;
/// At or above this % of its roof, a kernel with no cause worth min_limiter_gain is limited by
/// that roof (below it, far from every roof, the gap is unexplained).
inline constexpr double bound_pct = 60;
/// Below this share of the time to gain, a finding is listed but never the main limiter.
inline constexpr double min_limiter_gain = 0.10;
/// Shared-memory replays (conflict wavefronts over all wavefronts) worth a finding.
inline constexpr double min_conflict_share = 0.10;
/// A compute-bound kernel at or above this share of its roof keeps its pipes busy: more
/// resident warps would not make it faster (occupancy only hides latency).
inline constexpr double busy_compute_pct = 50;
inline constexpr double tiny_kernel_s = 10e-6; ///< launch overhead matters below this

std::optional<double> counter(const kernel_result& k, const std::string& name);
double gap_of(const kernel_placement& pl);
int registers_of(const kernel_result& k);
double kernel_time(const kernel_result& k);
/// "dram_bandwidth", "l2_bandwidth", "l1_bandwidth" or "compute" for the binding roof.
std::string roof_kind(const kernel_placement& pl);

diagnosis_occupancy occupancy_of(const arch_spec& arch, const kernel_result& k);
std::optional<diagnosis_finding> uncoalesced_finding(const kernel_result& k,
                                                     const kernel_placement& pl);
std::optional<diagnosis_finding> bank_conflict_finding(const kernel_result& k,
                                                       const kernel_placement& pl);
std::optional<diagnosis_finding> local_memory_finding(const kernel_result& k,
                                                      const kernel_placement& pl);
/// Blocks over the SMs' resident blocks at the launch's occupancy (nullopt when unknown).
std::optional<double> waves_of(const run& r, const kernel_result& k,
                               const diagnosis_occupancy& occ);
/// A limited theoretical occupancy, for a grid of more than one wave.
std::optional<diagnosis_finding> occupancy_finding(const run& r, const kernel_result& k,
                                                   const diagnosis_occupancy& occ,
                                                   const kernel_placement& pl);
std::optional<diagnosis_finding> latency_finding(const run& r, const kernel_result& k,
                                                 const kernel_placement& pl,
                                                 const diagnosis_occupancy& occ);
/// Where the warps wait (stall counters from attach_stalls), for a kernel below near_roof_pct;
/// kind "warp_stalls", evidence_text "limiter" the limiter its largest group of reasons names.
std::optional<diagnosis_finding> stall_finding(const kernel_result& k, const kernel_placement& pl);
std::optional<diagnosis_finding> waves_finding(const run& r, const kernel_result& k,
                                               const kernel_placement& pl,
                                               const diagnosis_occupancy& occ);

} // namespace roofkit::diag

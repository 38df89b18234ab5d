// Launch findings: occupancy and its nearest cliff, Little's law, waves and tail, launch
// overhead.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "diagnosis_internal.hpp"
#include "roofkit/cliff.hpp"
#include "roofkit/occupancy.hpp"
#include "roofkit/plot.hpp"

namespace roofkit::diag {

namespace {

double blocks_of(const kernel_result& k) {
  return 1.0 * k.launch.grid[0] * k.launch.grid[1] * k.launch.grid[2];
}

launch_params params_of(const kernel_result& k) {
  launch_params p;
  p.threads_per_block = static_cast<int>(k.launch.block[0] * k.launch.block[1] * k.launch.block[2]);
  p.registers_per_thread = registers_of(k);
  p.static_smem = k.launch.static_smem_bytes;
  p.dynamic_smem = k.launch.dynamic_smem_bytes;
  return p;
}

std::string limiter_of(const occupancy_result& o) {
  for (limiter l : {limiter::registers, limiter::shared_memory, limiter::blocks, limiter::warps})
    if (o.limited_by(l))
      return std::string(to_string(l));
  return o.limiters ? limiter_names(o.limiters) : "warps";
}

// The nearest cliff of the limiting variable (or of registers when nothing limits): the side
// that raises occupancy when it is limited, else the nearer side.
std::optional<diagnosis_cliff> nearest_cliff(const arch_spec& arch, const launch_params& p,
                                             const std::string& limiter_name, bool limited) {
  const auto cliffs = find_cliffs(arch, p);
  const occupancy_variable want = limiter_name == "shared_memory"
                                      ? occupancy_variable::shared_memory
                                  : limiter_name == "registers" ? occupancy_variable::registers
                                                                : occupancy_variable::block_size;
  for (const auto& c : cliffs) {
    if (c.variable != (limited ? want : occupancy_variable::registers) &&
        !(limited == false && p.registers_per_thread == 0 && c.variable == want))
      continue;
    const occupancy_point* side = nullptr;
    if (limited)
      side = c.below && c.below->occupancy > c.current.occupancy   ? &*c.below
             : c.above && c.above->occupancy > c.current.occupancy ? &*c.above
                                                                   : nullptr;
    else if (c.below && c.above)
      side = (c.current.value - c.below->value) <= (c.above->value - c.current.value) ? &*c.below
                                                                                      : &*c.above;
    else
      side = c.below ? &*c.below : c.above ? &*c.above : nullptr;
    if (!side)
      continue;
    diagnosis_cliff out;
    out.variable = std::string(to_string(c.variable));
    out.current = c.current.value;
    out.value = side->value;
    out.occupancy = side->occupancy;
    out.text = c.text;
    launch_params at = p;
    if (c.variable == occupancy_variable::registers)
      at.registers_per_thread = static_cast<int>(side->value);
    else if (c.variable == occupancy_variable::block_size)
      at.threads_per_block = static_cast<int>(side->value);
    else
      at.dynamic_smem = std::max<std::int64_t>(0, side->value - p.static_smem);
    out.arch = arch.id();
    out.threads = at.threads_per_block;
    out.registers = at.registers_per_thread;
    out.static_smem = at.static_smem;
    out.dynamic_smem = at.dynamic_smem;
    return out;
  }
  return std::nullopt;
}

// A grid of less than one wave has every block resident from the start: more resident warps, and
// the bytes they would keep in flight, can only come from more blocks. Names the grid as the
// cause of too few bytes in flight (evidence_text "cause": "small_grid") when at least one SM's
// worth of block slots is left empty; a grid that fills the wave (CUB's one-wave grids of SMs x
// blocks per SM) has no room for more resident blocks, so the loads per warp are the cause.
void add_grid_cause(diagnosis_finding& f, const kernel_result& k, std::optional<double> waves,
                    const diagnosis_occupancy& occ, int sm_count) {
  if (!waves)
    return;
  f.evidence["waves"] = *waves;
  const double slots = 1.0 * occ.active_blocks * sm_count;
  if (blocks_of(k) > slots - occ.active_blocks)
    return;
  f.evidence_text["cause"] = "small_grid";
  f.text += fmt::format("; the grid's {:.0f} blocks fill {:.0f}% of one wave ({} SMs x {} "
                        "blocks), so every block is resident already: more warps need more blocks",
                        blocks_of(k), 100 * *waves, sm_count, occ.active_blocks);
}

} // namespace

diagnosis_occupancy occupancy_of(const arch_spec& arch, const kernel_result& k) {
  const launch_params p = params_of(k);
  diagnosis_occupancy d;
  d.registers = p.registers_per_thread;
  d.achieved = k.occupancy_achieved;
  d.max_warps_per_sm = arch.max_warps_per_sm;
  const auto& g = k.launch.grid;
  if (p.threads_per_block <= 1 && 1ull * g[0] * g[1] * g[2] <= 1)
    return d; // the launch is not known

  const occupancy_result o = compute_occupancy(arch, p, false);
  d.theoretical = o.occupancy;
  d.active_blocks = o.active_blocks;
  d.limiter = limiter_of(o);
  if (o.active_blocks > 0)
    d.cliff = nearest_cliff(arch, p, d.limiter, o.occupancy < 1);
  return d;
}

std::optional<double> waves_of(const run& r, const kernel_result& k,
                               const diagnosis_occupancy& occ) {
  const double blocks = blocks_of(k);
  if (blocks <= 0 || occ.active_blocks <= 0 || r.context.sm_count <= 0)
    return std::nullopt;
  return blocks / (1.0 * occ.active_blocks * r.context.sm_count);
}

std::optional<diagnosis_finding> occupancy_finding(const run& r, const kernel_result& k,
                                                   const diagnosis_occupancy& occ,
                                                   const kernel_placement& pl) {
  // A grid of at most one wave is resident whole: a higher limit per SM adds no warps.
  const auto waves = waves_of(r, k, occ);
  if (occ.theoretical <= 0 || occ.theoretical >= 1 || pl.pct_of_roof >= near_roof_pct ||
      occ.limiter.empty() || occ.limiter == "barriers" || (waves && *waves <= 1) ||
      (pl.compute_bound && pl.pct_of_roof >= busy_compute_pct))
    return std::nullopt;
  diagnosis_finding f;
  f.kind = "occupancy_" + occ.limiter;
  // A latency-bound kernel runs about as fast as its resident warps allow, up to the roof: the
  // time it could save with every warp slot filled (the nearest cliff is the first step).
  const double reach = std::min(100.0, pl.pct_of_roof / occ.theoretical);
  f.gain = reach > 0 ? 1 - pl.pct_of_roof / reach : 0;
  f.text = fmt::format("theoretical occupancy {:.0f}% ({} blocks per SM), limited by {}{}",
                       100 * occ.theoretical, occ.active_blocks, occ.limiter,
                       occ.cliff ? fmt::format("; {:.0f}% at {} {}", 100 * occ.cliff->occupancy,
                                               occ.cliff->value, occ.cliff->variable)
                                 : std::string());
  f.evidence = {{"theoretical", occ.theoretical}};
  if (occ.achieved)
    f.evidence["achieved"] = *occ.achieved;
  f.evidence_text["limiter"] = occ.limiter;
  if (occ.cliff)
    f.evidence["cliff_value"] = static_cast<double>(occ.cliff->value);
  return f;
}

std::optional<diagnosis_finding> latency_finding(const run& r, const kernel_result& k,
                                                 const kernel_placement& pl,
                                                 const diagnosis_occupancy& occ) {
  const auto* dram = find_level(pl, memory_level::dram);
  const auto lr = counter(k, "smsp__sass_inst_executed_op_global_ld.sum");
  const auto ls = counter(k, "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum");
  if (pl.bound != "dram" || !dram || !dram->has_ceiling || !lr || !ls || *lr <= 0 ||
      r.context.sm_count <= 0 || !occ.achieved || occ.max_warps_per_sm <= 0 || pl.pct_of_roof >= 90)
    return std::nullopt;
  const memory_latency lat = dram_latency(r.context.cc_major, r.context.cc_minor);
  const double needed = dram->bandwidth_roof * lat.dram_ns * 1e-9;
  const double bytes_per_load = 32 * *ls / *lr;
  const double warps = *occ.achieved * occ.max_warps_per_sm; // achieved resident warps per SM
  const double in_flight = warps * r.context.sm_count * bytes_per_load;
  if (in_flight >= needed)
    return std::nullopt;
  diagnosis_finding f;
  f.kind = "latency_hiding";
  f.gain = std::min(gap_of(pl), 1 - in_flight / needed);
  f.text = fmt::format("too few bytes in flight: the DRAM roof needs {} ({}/s x {:.0f} ns); "
                       "{:.1f} warps per SM x {} SMs x {:.0f} B per load keep {} in flight with "
                       "one load per warp",
                       format_si(needed, "B"), format_si(dram->bandwidth_roof, "B"), lat.dram_ns,
                       warps, r.context.sm_count, bytes_per_load, format_si(in_flight, "B"));
  f.evidence = {{"bytes_in_flight_needed", needed},
                {"bytes_in_flight", in_flight},
                {"bytes_per_load", bytes_per_load},
                {"warps_per_sm", warps},
                {"dram_latency_ns", lat.dram_ns}};
  add_grid_cause(f, k, waves_of(r, k, occ), occ, r.context.sm_count);
  return f;
}

namespace {

// The run's shortest kernel time: an upper bound of what launching and ramping up a grid costs
// on this GPU, measured in the run itself.
double launch_floor_s(const run& r) {
  double floor = 0;
  for (const kernel_result& k : r.kernels)
    if (const double t = kernel_time(k); t > 0 && (floor == 0 || t < floor))
      floor = t;
  return floor;
}

} // namespace

std::optional<diagnosis_finding> waves_finding(const run& r, const kernel_result& k,
                                               const kernel_placement& pl,
                                               const diagnosis_occupancy& occ) {
  const auto wave_count = waves_of(r, k, occ);
  if (!wave_count)
    return std::nullopt;
  const double blocks = blocks_of(k);
  const double slots = 1.0 * occ.active_blocks * r.context.sm_count;
  const double waves = *wave_count;
  const double t = kernel_time(k);
  diagnosis_finding f;
  f.evidence = {{"waves", waves}, {"blocks", blocks}, {"blocks_per_wave", slots}};
  if (waves < 1 && t > 0 && (t < tiny_kernel_s || k.overhead_dominated)) {
    // Only the fixed cost is overhead: a kernel n times the run's shortest spends at most 1/n of
    // its time launching and ramping up, and the rest of its gap is for other findings.
    const double floor = launch_floor_s(r);
    f.kind = "launch_overhead";
    f.gain = std::min(gap_of(pl), floor / t);
    f.evidence["launch_floor_s"] = floor;
    f.text = fmt::format("{} for {:.0f} blocks, {:.1f}% of one wave ({} SMs x {} blocks): the "
                         "run's shortest kernel takes {}, so launch and ramp are up to {:.0f}% "
                         "of this one",
                         format_si(t, "s"), blocks, 100 * waves, r.context.sm_count,
                         occ.active_blocks, format_si(floor, "s"), 100 * floor / t);
    return f;
  }
  const double full = std::ceil(waves);
  const double idle = (full - waves) / full; // SM time left idle in the last wave
  if (idle <= tail_threshold)
    return std::nullopt;
  f.kind = "tail_effect";
  f.gain = std::min(idle, gap_of(pl));
  if (waves < 1)
    f.text = fmt::format("{:.0f} blocks fill {:.0f}% of one wave ({} SMs x {} blocks): {:.0f}% "
                         "of the SM slots stay idle",
                         blocks, 100 * waves, r.context.sm_count, occ.active_blocks, 100 * idle);
  else
    f.text = fmt::format("{:.2f} waves of {:.0f} blocks: the last wave is {:.0f}% full, leaving "
                         "{:.0f}% of the SM time idle",
                         waves, slots, 100 * (waves - std::floor(waves)), 100 * idle);
  return f;
}

} // namespace roofkit::diag

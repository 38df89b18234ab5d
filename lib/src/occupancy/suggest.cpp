// Suggestions: block size, register budget, dynamic shared memory for N blocks, carveouts,
// cluster bounds.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofkit/occupancy.hpp"

namespace roofkit {

block_size_suggestion suggest_block_size(const arch_spec& arch, const launch_params& launch,
                                         const smem_for_block_size& smem, int block_size_limit) {
  const int limit = block_size_limit > 0 ? std::min(block_size_limit, arch.max_threads_per_block)
                                         : arch.max_threads_per_block;
  const int step = arch.warp_size;
  const int start = (limit + step - 1) / step * step;
  block_size_suggestion best;
  int best_threads = 0;
  launch_params l = launch;
  for (int aligned = start; aligned > 0; aligned -= step) {
    l.threads_per_block = std::min(limit, aligned);
    if (smem)
      l.dynamic_smem = smem(l.threads_per_block);
    const auto r = compute_occupancy(arch, l, false);
    const int threads = r.active_blocks * l.threads_per_block;
    if (threads > best_threads) { // strictly greater: ties stay with the larger block
      best_threads = threads;
      best.block_size = l.threads_per_block;
      best.active_blocks = r.active_blocks;
      best.active_warps = r.active_warps;
      best.occupancy = r.occupancy;
      best.dynamic_smem = l.dynamic_smem;
    }
    if (best_threads == arch.max_threads_per_sm)
      break;
  }
  return best;
}

double register_free_occupancy(const arch_spec& arch, const launch_params& launch) {
  launch_params l = launch;
  l.registers_per_thread = 0;
  return compute_occupancy(arch, l, false).occupancy;
}

register_suggestion suggest_registers(const arch_spec& arch, const launch_params& launch,
                                      double target_occupancy) {
  register_suggestion s;
  s.target_occupancy = target_occupancy;
  launch_params l = launch;
  const int warps_per_block = (launch.threads_per_block + arch.warp_size - 1) / arch.warp_size;
  const int target_warps =
      static_cast<int>(std::ceil(target_occupancy * arch.max_warps_per_sm - 1e-9));
  s.min_blocks_per_sm =
      warps_per_block > 0 ? (target_warps + warps_per_block - 1) / warps_per_block : 0;
  for (int regs = arch.max_registers_per_thread / 8 * 8; regs >= 8; regs -= 8) {
    l.registers_per_thread = regs;
    const auto r = compute_occupancy(arch, l, false);
    if (r.active_blocks > 0 && r.occupancy + 1e-12 >= target_occupancy) {
      s.max_registers = regs;
      s.active_blocks = r.active_blocks;
      s.occupancy = r.occupancy;
      break;
    }
  }
  if (s.max_registers > 0) {
    s.launch_bounds = fmt::format("__launch_bounds__({}, {})", launch.threads_per_block,
                                  std::max(s.min_blocks_per_sm, 1));
    s.maxrregcount = fmt::format("-maxrregcount={}", s.max_registers);
  }
  return s;
}

int blocks_without_smem_limit(const arch_spec& arch, const launch_params& launch) {
  launch_params l = launch;
  l.dynamic_smem = 0;
  const auto r = compute_occupancy(arch, l, false);
  return std::min({r.limit_warps, r.limit_blocks, r.limit_registers, r.limit_barriers});
}

smem_suggestion max_dynamic_smem_for_blocks(const arch_spec& arch, const launch_params& launch,
                                            int blocks) {
  smem_suggestion s;
  s.blocks = blocks;
  if (blocks <= 0)
    return s;
  launch_params l = launch;
  auto blocks_at = [&](std::int64_t dynamic) {
    l.dynamic_smem = dynamic;
    return compute_occupancy(arch, l, false).active_blocks;
  };
  const std::int64_t top = arch.shared_memory_per_block_optin - launch.static_smem;
  if (top < 0 || blocks_at(0) < blocks)
    return s;
  // Resident blocks never grow with the dynamic size: binary search for the last that fits.
  std::int64_t lo = 0;
  std::int64_t hi = top;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo + 1) / 2;
    if (blocks_at(mid) >= blocks)
      lo = mid;
    else
      hi = mid - 1;
  }
  s.max_dynamic_smem = lo;

  // The runtime's figure (cudaOccAvailableDynamicSMemPerBlock): the per-block cap, or the
  // carveout pool shared by N blocks, rounded down, minus static memory and nothing reserved.
  const std::int64_t per_block_cap =
      arch.shared_memory_per_block_optin + arch.reserved_shared_memory_per_block;
  std::int64_t pool = per_block_cap;
  if (blocks > 1) {
    pool = carveout_smem_per_sm(arch, launch.carveout);
    if (pool == 0) // the runtime then takes the smallest non-zero size
      for (std::int64_t size : arch.shared_memory_carveouts)
        if (size > 0) {
          pool = size;
          break;
        }
  }
  const std::int64_t unit = arch.shared_memory_allocation_unit;
  std::int64_t available = std::min(pool / blocks / unit * unit, per_block_cap);
  // Unsigned arithmetic there: a negative remainder wraps and is capped at the opt-in maximum.
  available = available < launch.static_smem ? top : std::min(available - launch.static_smem, top);
  s.runtime_reported = available;
  s.runtime_overreports = available > s.max_dynamic_smem;
  return s;
}

std::vector<carveout_effect> carveout_effects(const arch_spec& arch, const launch_params& launch) {
  std::vector<carveout_effect> effects;
  launch_params l = launch;
  auto add = [&](int carveout) {
    l.carveout = carveout;
    const auto r = compute_occupancy(arch, l, false);
    effects.push_back({carveout, carveout_smem_per_sm(arch, carveout), r.smem_per_sm,
                       r.active_blocks, r.occupancy});
  };
  add(carveout_default);
  if (!arch.has_carveout())
    return effects;
  std::int64_t last = -1;
  for (int pct = 0; pct <= 100; ++pct) {
    const std::int64_t size = carveout_smem_per_sm(arch, pct);
    if (size != last)
      add(pct);
    last = size;
  }
  return effects;
}

std::vector<cluster_bound> cluster_bounds(const arch_spec& arch, int active_blocks, int sm_count) {
  std::vector<cluster_bound> bounds;
  if (arch.max_cluster_size <= 0)
    return bounds;
  const int largest = std::max(arch.max_cluster_size, arch.max_cluster_size_nonportable);
  for (int size = 1; size <= largest; size *= 2) {
    cluster_bound b;
    b.cluster_size = size;
    b.portable = size <= arch.max_cluster_size;
    b.max_active_clusters_bound =
        sm_count > 0 ? static_cast<int>(std::int64_t{active_blocks} * sm_count / size) : 0;
    bounds.push_back(b);
  }
  return bounds;
}

} // namespace roofkit

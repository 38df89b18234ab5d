// The occupancy calculation: the block limit of each resource and their minimum.
#include <algorithm>

#include <fmt/format.h>

#include "roofkit/core.hpp"
#include "roofkit/occupancy.hpp"

namespace roofkit {

namespace {

constexpr std::int64_t ceil_div(std::int64_t x, std::int64_t y) { return (x + y - 1) / y; }
constexpr std::int64_t round_up(std::int64_t x, std::int64_t unit) {
  return ceil_div(x, unit) * unit;
}

/// The smallest supported shared-memory size >= bytes, or -1 when there is none.
std::int64_t align_to_carveout(const arch_spec& arch, std::int64_t bytes) {
  for (std::int64_t size : arch.shared_memory_carveouts)
    if (size >= bytes)
      return size;
  return -1;
}

/// Blocks per SM that the register file allows with `sub_partitions` warp granularity (32-bit
/// arithmetic: every operand is far below 2^31 for registers <= 255 and blocks <= 1024 threads).
inline int register_limit(const arch_spec& arch, int regs, int warps_per_block,
                          int sub_partitions) {
  const int unit = arch.register_allocation_unit;
  const int per_warp = (regs * arch.warp_size + unit - 1) / unit * unit;
  // The hardware checks the per-block limit as if every sub-partition received warps.
  const int rounded_warps =
      (warps_per_block + sub_partitions - 1) / sub_partitions * sub_partitions;
  if (regs > arch.max_registers_per_thread ||
      per_warp * rounded_warps > arch.max_registers_per_block ||
      per_warp * warps_per_block > arch.max_registers_per_block)
    return 0;
  if (per_warp == 0)
    return unlimited_blocks;
  const int warps_per_partition = (arch.registers_per_sm / sub_partitions) / per_warp;
  return warps_per_partition * sub_partitions / warps_per_block;
}

std::string zero_reason(const arch_spec& arch, const launch_params& l, const occupancy_result& r) {
  std::vector<std::string> why;
  if (r.limit_warps == 0)
    why.push_back(fmt::format("{} threads per block exceed the maximum of {} on {}",
                              l.threads_per_block, arch.max_threads_per_block, arch.id()));
  if (r.limit_registers == 0) {
    const int regs = l.registers_per_thread;
    const std::int64_t per_warp =
        round_up(std::int64_t{regs} * arch.warp_size, arch.register_allocation_unit);
    const int rounded_warps =
        static_cast<int>(round_up(r.warps_per_block, arch.warp_allocation_granularity));
    if (regs > arch.max_registers_per_thread)
      why.push_back(fmt::format("{} registers per thread exceed the maximum of {}", regs,
                                arch.max_registers_per_thread));
    else if (per_warp * r.warps_per_block > arch.max_registers_per_block)
      why.push_back(fmt::format("{} registers x {} threads need {} registers per block, more "
                                "than the {} a block may have",
                                regs, l.threads_per_block, per_warp * r.warps_per_block,
                                arch.max_registers_per_block));
    else if (per_warp * rounded_warps > arch.max_registers_per_block)
      why.push_back(fmt::format(
          "{} registers per thread ({} per warp) x {} warps fit in {} registers, but the hardware "
          "check rounds the warps up to {} (a multiple of {} sub-partitions): {} > {} per block",
          regs, per_warp, r.warps_per_block, per_warp * r.warps_per_block, rounded_warps,
          arch.warp_allocation_granularity, per_warp * rounded_warps,
          arch.max_registers_per_block));
    else
      why.push_back(fmt::format(
          "{} registers per thread: a block of {} warps does not fit in the register file of an "
          "SM{}",
          regs, r.warps_per_block,
          arch.register_compat_granularity
              ? fmt::format(" when checked with {} sub-partitions as on the rest of the family",
                            arch.register_compat_granularity)
              : std::string()));
  }
  if (r.limit_shared_memory == 0) {
    const std::int64_t total = l.static_smem + l.dynamic_smem;
    if (l.carveout < carveout_default || l.carveout > 100)
      why.push_back(fmt::format("carveout {} is outside -1..100 %", l.carveout));
    else
      why.push_back(fmt::format(
          "{} of shared memory per block (static {} + dynamic {}) exceeds the {} maximum of {}",
          format_bytes(total), format_bytes(l.static_smem), format_bytes(l.dynamic_smem),
          r.optin_assumed ? "opt-in" : "per-block",
          format_bytes(r.optin_assumed ? arch.shared_memory_per_block_optin
                                       : arch.shared_memory_per_block)));
  }
  if (why.empty())
    why.push_back("no resource leaves room for one block");
  std::string text;
  for (const auto& w : why)
    text += (text.empty() ? "" : "; ") + w;
  return text;
}

} // namespace

std::string_view to_string(limiter l) {
  switch (l) {
  case limiter::warps:
    return "warps";
  case limiter::registers:
    return "registers";
  case limiter::shared_memory:
    return "shared_memory";
  case limiter::blocks:
    return "blocks";
  case limiter::barriers:
    return "barriers";
  }
  return "unknown";
}

std::string limiter_names(unsigned mask) {
  std::string names;
  for (limiter l : all_limiters)
    if (mask & static_cast<unsigned>(l))
      names += (names.empty() ? "" : ", ") + std::string(to_string(l));
  return names.empty() ? "none" : names;
}

int occupancy_result::limit(limiter l) const {
  switch (l) {
  case limiter::warps:
    return limit_warps;
  case limiter::registers:
    return limit_registers;
  case limiter::shared_memory:
    return limit_shared_memory;
  case limiter::blocks:
    return limit_blocks;
  case limiter::barriers:
    return limit_barriers;
  }
  return 0;
}

std::int64_t carveout_smem_per_sm(const arch_spec& arch, int carveout) {
  if (!arch.has_carveout())
    return arch.shared_memory_per_sm;
  const std::int64_t preference =
      carveout == carveout_default
          ? arch.shared_memory_per_sm
          : static_cast<std::int64_t>(static_cast<std::uint32_t>(carveout) *
                                      static_cast<std::uint32_t>(arch.shared_memory_per_sm) / 100);
  return align_to_carveout(arch, preference);
}

occupancy_result compute_occupancy(const arch_spec& arch, const launch_params& l, bool explain) {
  occupancy_result r;
  const int threads = l.threads_per_block;
  if (threads <= 0) {
    if (explain)
      r.reason = fmt::format("{} threads per block: a block needs at least 1 thread", threads);
    return r;
  }
  const int warps = (threads + arch.warp_size - 1) / arch.warp_size;
  r.warps_per_block = warps;

  // Warp slots and block slots.
  r.limit_warps = threads > arch.max_threads_per_block ? 0 : arch.max_warps_per_sm / warps;
  r.limit_blocks = arch.max_blocks_per_sm;

  // Registers, allocated per warp.
  const int regs = std::clamp(l.registers_per_thread, 0, 4096);
  const int unit = arch.register_allocation_unit;
  r.allocated_registers_per_block = (regs * arch.warp_size + unit - 1) / unit * unit * warps;
  r.limit_registers = register_limit(arch, regs, warps, arch.warp_allocation_granularity);
  if (r.limit_registers > 0 && arch.register_compat_granularity > 0 &&
      register_limit(arch, regs, warps, arch.register_compat_granularity) == 0)
    r.limit_registers = 0;

  // Shared memory: the reserved bytes are charged to every block, even one using none.
  const std::int64_t requested = l.static_smem + l.dynamic_smem;
  const std::int64_t charged = requested + arch.reserved_shared_memory_per_block;
  if (charged >= 0 && charged < (std::int64_t{1} << 30)) { // 32-bit division when it fits
    const auto unit32 = static_cast<std::uint32_t>(arch.shared_memory_allocation_unit);
    r.allocated_smem_per_block =
        (static_cast<std::uint32_t>(charged) + unit32 - 1) / unit32 * unit32;
  } else {
    r.allocated_smem_per_block = round_up(charged, arch.shared_memory_allocation_unit);
  }
  r.optin_assumed = requested > arch.shared_memory_per_block;
  r.smem_per_block_limit =
      (r.optin_assumed ? arch.shared_memory_per_block_optin : arch.shared_memory_per_block) +
      arch.reserved_shared_memory_per_block;
  if (l.carveout < carveout_default || l.carveout > 100 || l.static_smem < 0 ||
      l.dynamic_smem < 0 || r.allocated_smem_per_block > r.smem_per_block_limit) {
    r.limit_shared_memory = 0;
  } else {
    // Below the per-block limit every size fits in 32 bits.
    const auto alloc = static_cast<std::uint32_t>(r.allocated_smem_per_block);
    auto pool = static_cast<std::uint32_t>(carveout_smem_per_sm(arch, l.carveout));
    // A preference smaller than one block is overridden: Volta and later take the smallest
    // supported size that holds the block (usually one block); earlier GPUs have fixed memory.
    if (pool < alloc)
      pool = static_cast<std::uint32_t>(arch.has_carveout() ? align_to_carveout(arch, alloc)
                                                            : arch.shared_memory_per_sm);
    r.smem_per_sm = pool;
    r.limit_shared_memory = alloc > 0 ? static_cast<int>(pool / alloc) : unlimited_blocks;
  }

  // Block barriers (applied from Hopper on).
  r.limit_barriers = arch.block_barriers_per_sm > 0 && l.barriers > 0
                         ? arch.block_barriers_per_sm / l.barriers
                         : unlimited_blocks;

  const int blocks = std::min(std::min(std::min(r.limit_warps, r.limit_blocks),
                                       std::min(r.limit_registers, r.limit_shared_memory)),
                              r.limit_barriers);
  r.active_blocks = blocks;
  r.limiters =
      (r.limit_warps == blocks ? static_cast<unsigned>(limiter::warps) : 0u) |
      (r.limit_registers == blocks ? static_cast<unsigned>(limiter::registers) : 0u) |
      (r.limit_shared_memory == blocks ? static_cast<unsigned>(limiter::shared_memory) : 0u) |
      (r.limit_blocks == blocks ? static_cast<unsigned>(limiter::blocks) : 0u) |
      (r.limit_barriers == blocks ? static_cast<unsigned>(limiter::barriers) : 0u);
  r.active_warps = blocks * warps;
  r.occupancy = static_cast<double>(r.active_warps) / arch.max_warps_per_sm;
  if (blocks == 0 && explain)
    r.reason = zero_reason(arch, l, r);
  return r;
}

void validate_launch(const arch_spec& arch, const launch_params& l) {
  if (l.threads_per_block < 1 || l.threads_per_block > arch.max_threads_per_block)
    throw usage_error(fmt::format("threads per block '{}' out of range (valid: 1..{} on {})",
                                  l.threads_per_block, arch.max_threads_per_block, arch.id()));
  if (l.registers_per_thread < 0 || l.registers_per_thread > arch.max_registers_per_thread)
    throw usage_error(fmt::format("registers per thread '{}' out of range (valid: 0..{})",
                                  l.registers_per_thread, arch.max_registers_per_thread));
  if (l.static_smem < 0 || l.dynamic_smem < 0)
    throw usage_error(fmt::format("shared memory '{}' is negative (valid: 0..{} bytes)",
                                  l.static_smem < 0 ? l.static_smem : l.dynamic_smem,
                                  arch.shared_memory_per_block_optin));
  if (l.static_smem > arch.shared_memory_per_block_optin)
    throw usage_error(fmt::format("static shared memory '{}' out of range (valid: 0..{} bytes, "
                                  "the opt-in maximum of {})",
                                  l.static_smem, arch.shared_memory_per_block_optin, arch.id()));
  if (l.static_smem + l.dynamic_smem > arch.shared_memory_per_block_optin)
    throw usage_error(fmt::format(
        "shared memory per block '{}' (static {} + dynamic {}) out of range (valid: 0..{} bytes, "
        "the opt-in maximum of {})",
        l.static_smem + l.dynamic_smem, l.static_smem, l.dynamic_smem,
        arch.shared_memory_per_block_optin, arch.id()));
  if (l.carveout < carveout_default || l.carveout > 100)
    throw usage_error(fmt::format(
        "carveout '{}' out of range (valid: -1 for the default, or 0..100 %)", l.carveout));
  if (l.barriers < 0 || l.barriers > 16)
    throw usage_error(fmt::format("barriers '{}' out of range (valid: 0..16)", l.barriers));
}

} // namespace roofkit

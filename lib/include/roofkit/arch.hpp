#pragma once
// roofkit/arch.hpp: per-compute-capability hardware tables.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace roofkit {

/// The occupancy-relevant hardware limits of one compute capability, loaded from
/// data/arch/sm_XY.json (each value there carries its source).
struct arch_spec {
  int cc_major = 0;
  int cc_minor = 0;
  std::string family;   ///< "Hopper"
  std::string examples; ///< products with this compute capability
  int warp_size = 32;
  int max_threads_per_block = 1024;
  int max_warps_per_sm = 0;
  int max_threads_per_sm = 0;
  int max_blocks_per_sm = 0;
  int registers_per_sm = 0;
  int max_registers_per_block = 0;
  int max_registers_per_thread = 255;
  int register_allocation_unit = 256;  ///< registers per warp are rounded up to this
  int warp_allocation_granularity = 4; ///< sub-partitions: warps rounded up for the register check
  int register_compat_granularity = 0; ///< 6.0 only: also checked with this many sub-partitions
  std::int64_t shared_memory_per_sm = 0;
  std::int64_t shared_memory_per_block = 0; ///< without opt-in (48 KB)
  std::int64_t shared_memory_per_block_optin =
      0; ///< with cudaFuncAttributeMaxDynamicSharedMemorySize
  std::int64_t reserved_shared_memory_per_block = 0;
  std::int64_t shared_memory_allocation_unit = 256;
  std::vector<std::int64_t> shared_memory_carveouts; ///< bytes, ascending; empty = fixed
  int block_barriers_per_sm = 0; ///< barrier limit = this / barriers per block; 0 = none
  int max_cluster_size = 0;      ///< portable maximum; 0 = no clusters
  int max_cluster_size_nonportable = 0;
  std::map<std::string, std::string> sources; ///< value name -> where it comes from

  /// "sm_90"
  std::string id() const;
  /// "9.0"
  std::string cc() const;
  /// True when the shared-memory / L1 split can be configured (Volta and later).
  bool has_carveout() const { return !shared_memory_carveouts.empty(); }
};

/// Every known architecture, ascending by compute capability (loaded once, thread-safe).
const std::vector<arch_spec>& all_archs();

/// The architecture named by "sm_90", "sm_90a", "compute_90", "90" or "9.0"; throws usage_error
/// naming the text and listing the valid names.
const arch_spec& find_arch(std::string_view name);

/// The architecture with this compute capability, or nullptr.
const arch_spec* find_arch(int cc_major, int cc_minor) noexcept;

/// Parses one data/arch JSON document; throws runtime_error naming `origin` when a value is
/// missing or inconsistent.
arch_spec parse_arch_json(std::string_view json_text, const std::string& origin);

/// "sm_50, sm_52, ..., sm_121"
std::string valid_arch_names();

} // namespace roofkit

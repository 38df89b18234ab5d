#pragma once
// Per-compute-capability resource sizes used to build a device model offline (internal).
#include <optional>

namespace roofkit::detail {

/// The sizes a device model needs, read from the architecture table (data/arch, each value with
/// its source) plus the combined L1/shared-memory size per SM; a live query reads the same values
/// from the device.
struct cc_limits {
  int cc_major = 0;
  int cc_minor = 0;
  int shared_memory_per_sm = 0;
  int shared_memory_per_block_optin = 0;
  int reserved_shared_memory_per_block = 0;
  int l1_shared_per_sm = 0;
  int registers_per_sm = 65536;
  int registers_per_block = 65536;
  int max_threads_per_sm = 0;
  int max_threads_per_block = 1024;
  int max_blocks_per_sm = 0;
  bool exact = true; ///< false: nearest lower known CC
};

/// The limits of a CC, or of the nearest lower one in the architecture table (exact = false);
/// nullopt below 7.0.
std::optional<cc_limits> limits_for_cc(int cc_major, int cc_minor);

} // namespace roofkit::detail

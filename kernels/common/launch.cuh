#pragma once
// Device-side helper for launchers: the descriptor's launch_config as dim3s.
#include "roofkit/run.hpp"

namespace roofkit::kernels {

inline dim3 grid_of(const launch_config& lc) { return dim3(lc.grid[0], lc.grid[1], lc.grid[2]); }
inline dim3 block_of(const launch_config& lc) {
  return dim3(lc.block[0], lc.block[1], lc.block[2]);
}

} // namespace roofkit::kernels

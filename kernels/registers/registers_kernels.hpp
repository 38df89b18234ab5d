#pragma once
// The register cliff (registers_kernels.cu): one kernel body with K live accumulators, compiled
// with different register budgets. Host launchers only.
#include <cuda_runtime_api.h>

#include "roofkit/run.hpp"

namespace roofkit::kernels {

inline constexpr int register_block = 512;
inline constexpr int register_items_per_thread = 8;

/// The compiled variants (register counts as ptxas 13.0 gives them for sm_90; the facts of an
/// instance report the real ones):
enum class register_variant {
  k22_free,  ///< K = 22, __launch_bounds__(512): 31 registers, 4 blocks of 512 per SM
  k24_free,  ///< K = 24 (two more live variables), __launch_bounds__(512): 36 registers
  k26_cap32, ///< K = 26, __maxnreg__(32): 32 registers (a few bytes spilled), 4 blocks
  k26_cap33, ///< K = 26, __maxnreg__(33): 33 registers, 3 blocks of 512 per SM
  k26_cap24, ///< K = 26, __maxnreg__(24): 24 registers, heavy spilling to local memory
};

/// The number of accumulators of a variant.
int register_accumulators(register_variant v);

/// Thread t (of T = grid x block threads) folds in[t], in[t + T], ... into K accumulators
/// (acc[k] = acc[k] x + acc[k+1 mod K], from acc[k] = k / 8) and writes their sum to out[t].
void launch_register_kernel(const launch_config& lc, register_variant v, const float* in,
                            float* out, unsigned n, cudaStream_t stream);

const void* register_function(register_variant v);

} // namespace roofkit::kernels

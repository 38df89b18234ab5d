#pragma once
// Shared-memory bank conflicts (smem_kernels.cu): host launchers only.
#include <cuda_runtime_api.h>

#include "roofkit/run.hpp"

namespace roofkit::kernels {

inline constexpr int bank_block = 256;
inline constexpr int bank_reps = 256;

/// Each thread keeps in[t] at word lane * ways of its warp's 1024-word shared region and reads
/// it back bank_reps times (volatile loads): a warp's 32 loads fall into 32 / ways banks, so
/// each load instruction is a ways-way conflict. out[t] = bank_reps * in[t].
/// ways in {1, 2, 4, 8, 16, 32}.
void launch_bank_conflicts(const launch_config& lc, int ways, const float* in, float* out,
                           unsigned n, cudaStream_t stream);

const void* bank_conflict_function(int ways);

} // namespace roofkit::kernels

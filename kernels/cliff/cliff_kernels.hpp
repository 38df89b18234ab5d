#pragma once
// Kernels made for cliff sweeps (cliff_kernels.cu, cliff_regs.cu): every launch parameter is the
// caller's (block size, dynamic shared memory, register-cap variant). The dynamic shared memory
// is allocated, not used: it only limits how many blocks fit on an SM. Host launchers only.
#include <cstdint>
#include <vector>

#include <cuda_runtime_api.h>

#include "roofkit/run.hpp"

namespace roofkit::kernels {

/// Dependent loads per thread of the pointer chase.
inline constexpr int chase_steps = 32;
/// Threads of the pointer chase (fixed: the problem size is the table's length).
inline constexpr std::uint32_t chase_threads = 1u << 20;
/// Independent FMA chains per thread and iterations per chain of the FMA kernel.
inline constexpr int fma_chains = 4;
inline constexpr int fma_iterations = 256;

/// Memory-bound: a[i] = b[i] + 3 c[i], one element per thread.
void launch_cliff_triad(const launch_config& lc, float* a, const float* b, const float* c,
                        std::uint32_t n, cudaStream_t stream);
const void* cliff_triad_function();

/// Latency-bound: thread t walks a chain of chase_steps dependent loads through `table` (each
/// index computed from the value loaded before, see chase_next) and writes their sum to out[t].
void launch_cliff_chase(const launch_config& lc, const float* table, std::uint32_t n, float* out,
                        cudaStream_t stream);
const void* cliff_chase_function();

/// Compute-bound: out[i] = the sum of fma_chains chains a = fma(a, x, 0.5) run fma_iterations
/// times from a = k / 4, with x = in[i] / 2.
void launch_cliff_fma(const launch_config& lc, const float* in, float* out, std::uint32_t n,
                      cudaStream_t stream);
const void* cliff_fma_function();

/// The register caps the register-cliff body (26 accumulators) is compiled at.
const std::vector<int>& cliff_register_caps();
/// The fold body of kernels/registers with 26 accumulators under __maxnreg__(cap); `cap` must be
/// one of cliff_register_caps() (throws roofkit::error otherwise).
void launch_cliff_fold(const launch_config& lc, int cap, const float* in, float* out,
                       std::uint32_t n, cudaStream_t stream);
const void* cliff_fold_function(int cap);
/// Accumulators of the register-cap variants.
inline constexpr int cliff_fold_accumulators = 26;

} // namespace roofkit::kernels

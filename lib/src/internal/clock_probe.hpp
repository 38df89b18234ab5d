#pragma once
// Internal: the device kernels of the timing harness (clock64() spin, L2 sweeps).
#include <cstddef>

#include <cuda_runtime_api.h>

namespace roofkit::detail {

/// One block of one thread spins until `cycles` SM clocks have passed and writes the cycles it
/// saw to `elapsed` (device memory).
void launch_clock_probe(long long cycles, long long* elapsed, cudaStream_t stream);

/// Reads `bytes` (a multiple of 16) of `buffer`, which must hold zeros, with `blocks` blocks;
/// writes to `sink` only if the data is not all zeros (never, for a zeroed buffer).
void launch_l2_read_sweep(const void* buffer, std::size_t bytes, unsigned salt, unsigned* sink,
                          int blocks, cudaStream_t stream);

/// Invalidates every 128-byte line of `buffer` (128-byte aligned; `bytes` a multiple of 128)
/// in the L2 without writing it back (discard.global.L2); its contents become indeterminate.
/// Does nothing before sm_80.
void launch_l2_discard_sweep(void* buffer, std::size_t bytes, int blocks, cudaStream_t stream);

/// Blocks for launch_l2_read_discard_sweep() on `device`: `per_sm` a multiprocessor or fewer, as
/// many as can be resident at once; 0 where the device has no cooperative launch or no discard
/// (before sm_80).
int l2_read_discard_blocks(int device, int per_sm);

/// The read sweep and then the discard sweep of `buffer` (as above) in one cooperative launch of
/// `blocks` blocks, which must all be resident at once (l2_read_discard_blocks()); returns the
/// launch's error, unchecked.
cudaError_t launch_l2_read_discard_sweep(void* buffer, std::size_t bytes, unsigned salt,
                                         unsigned* sink, int blocks, cudaStream_t stream);

} // namespace roofkit::detail

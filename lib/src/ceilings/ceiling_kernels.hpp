#pragma once
// Launchers of the ceiling microbenchmarks (ceiling_kernels.cu); host code only calls these.
#include <cstddef>

#include <cuda_runtime_api.h>

namespace roofkit::ceiling_kernels {

/// Grid-stride float4 copy of `count4` float4 values (reads and writes each once).
void launch_copy(const void* in, void* out, std::size_t count4, int blocks, int threads,
                 cudaStream_t stream);
/// Copy of `count4` float4 values, one per thread (no loop).
void launch_copy_once(const void* in, void* out, std::size_t count4, int threads,
                      cudaStream_t stream);
/// Fills a float buffer with a non-zero pattern.
void launch_fill(float* data, std::size_t count, float seed, cudaStream_t stream);
/// FP32 FMA throughput: each thread runs `iterations` x 8 independent FMA chains; writes one
/// float per thread so the work is kept. FLOPs = 2 x 8 x iterations x blocks x threads.
void launch_fma_f32(float* out, int iterations, int blocks, int threads, cudaStream_t stream);
/// Same in FP64.
void launch_fma_f64(double* out, int iterations, int blocks, int threads, cudaStream_t stream);

} // namespace roofkit::ceiling_kernels

#pragma once
// Launchers of the ceiling microbenchmarks (*.cu in this folder); host code only calls these.
// Every kernel records, from thread 0 of block 0, the SM clock counter and the global timer at
// its start and end (clock_sample), so each ceiling carries the clock of its own run.
#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

namespace roofkit::ceiling_kernels {

/// clock64() and %globaltimer (ns) at the start and end of block 0, one slot per launch (the
/// last `slots` launches), so that the clock goes with the launches that were timed.
struct clock_sample {
  static constexpr int slots = 32;
  unsigned long long launches = 0; ///< launches recorded; slot of launch i: i % slots
  unsigned long long clock0[slots] = {}, clock1[slots] = {}, time0[slots] = {}, time1[slots] = {};
};

/// Launch shape shared by the launchers.
struct shape {
  int blocks = 0;
  int threads = 0;
  cudaStream_t stream = nullptr;
  clock_sample* clock = nullptr; ///< device pointer, may be null
  unsigned* errors = nullptr;    ///< device counter of failed checks, may be null
};

// ---- memory (memory_kernels.cu) ----

/// Fills `count` floats with `value`.
void fill_float(float* data, std::size_t count, float value, cudaStream_t stream);
/// Fills `count` elements of an element type with pseudo-random values in [-1, 1):
/// kind 0 float, 1 double, 2 half, 3 bfloat16, 4 FP8 e4m3.
void fill_random(void* data, std::size_t count, int kind, unsigned seed, cudaStream_t stream);

/// Streams over `count` float4 elements with evict-first loads and stores, grid-stride, four
/// independent elements per thread and iteration. kind: 0 read (a = sum of b, checked against
/// `expected_value` per element read), 1 write (a = value), 2 copy (a = b), 3 triad
/// (a = b + s c). Bytes: read 16, write 16, copy 32, triad 48 per element.
void stream(int kind, float* a, const float* b, const float* c, std::size_t count,
            float expected_value, const shape& s);

/// Working-set sweep: block i owns the slice [i x slice, (i+1) x slice) of float4 elements
/// (per array) and goes over it `passes` times. kind: 0 read, cached in L1 (ld.ca); 1 read,
/// L2 only (ld.cg, float4); 2 read, L2 only, 8-byte loads; 3 write; 4 copy; 5 triad. Reads
/// are checked against `expected_value` (the fill value).
void sweep(int kind, float* a, const float* b, const float* c, std::size_t slice4, int passes,
           float expected_value, const shape& s);

/// Shared memory: each thread reads `iterations` float4 from a 32 KiB block-local buffer at an
/// index that depends on the iteration (no bank conflicts). 16 bytes per thread and iteration.
void shared_read(int iterations, float* sink, const shape& s);
/// Shared-memory wavefronts: each thread reads `iterations` floats, every lane of a warp from a
/// different word of the same bank (32 wavefronts per warp load). Counted as the L1 level counts
/// shared memory: 128 bytes per wavefront, i.e. 128 bytes per thread and iteration.
void shared_wavefronts(int iterations, float* sink, const shape& s);

// ---- CUDA-core FMA (fma_kernels.cu) ----

/// Precisions of the FMA loops.
enum class fma_type { fp64, fp32, fp16x2, bf16x2 };

/// `chains` (8, 16, 24 or 32) independent FMA chains a = a x 0.5 + 0.5 per thread, `iterations`
/// times; each chain converges to exactly 1, so `out[t]` (a double) must equal `chains`.
/// FLOPs per thread and iteration: 2 x chains (x 2 lanes for the x2 types).
void fma_loop(fma_type type, int chains, int iterations, double* out, const shape& s);

// ---- tensor cores, mma.sync (mma_kernels.cu) ----

/// mma.sync shapes: fp16 and bf16 m16n8k16 (FP32 accumulate), tf32 m16n8k8, int8 m16n8k32,
/// fp64 m8n8k4 (sm_80 on) and fp64 m16n8k16 (sm_90 on; the shape that reaches Hopper's full
/// FP64 tensor rate; on an older device its every check fails, so it is never taken as a roof).
enum class mma_type { fp16, bf16, tf32, int8, fp64, fp64_m16n8k16 };

/// Each warp runs `chains` independent accumulators through `iterations` mma.sync each, with
/// all-ones operands held in registers; every accumulator element must equal K x iterations.
void mma_loop(mma_type type, int chains, int iterations, const shape& s);
/// FLOPs (or ops) of one mma.sync instruction of a warp: 2 x M x N x K.
double mma_flops(mma_type type);

// ---- tensor cores, wgmma (wgmma_kernels.sm90a.cu, sm_90a only) ----

/// wgmma shapes m64n256kK with both operands in shared memory: fp16, bf16 (K 16), tf32 (K 8),
/// fp8 e4m3 and int8 (K 32).
enum class wgmma_type { fp16, bf16, tf32, fp8, int8 };

/// True when this build holds the sm_90a wgmma kernels.
bool wgmma_built();
/// Blocks of one warpgroup (128 threads) run `iterations` x 4 wgmma on one accumulator, all-ones
/// operands; every accumulator element must equal K x 4 x iterations.
void wgmma_loop(wgmma_type type, int iterations, const shape& s);
/// FLOPs (or ops) of one wgmma instruction of a warpgroup: 2 x 64 x 256 x K.
double wgmma_flops(wgmma_type type);

} // namespace roofkit::ceiling_kernels

#pragma once
// Kernels whose counter values are known exactly, shared by tests/gpu/test_profiler_counts.cu
// and the roofkit-validate program that scripts/ncu-compare.sh runs under Nsight Compute.
// Header-only CUDA (include from one .cu file per program); no fmt, no JSON.
#include <cstdint>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>
#include <mma.h>
#include <string>
#include <vector>

#include "roofkit/core.hpp"
#include "validate_cases.hpp"

namespace roofkit::validation {

// The seed article's coalescing pair: 262144 blocks of 256 threads, one float per thread.
constexpr unsigned vector_blocks = 262144;
constexpr unsigned vector_threads = 256;
constexpr unsigned vector_n = vector_blocks * vector_threads; // 67,108,864
// The article's matrix pair: 16384 x 16384 floats, (512, 512) blocks of (32, 32).
constexpr unsigned matrix_side = 16384;
// The copy used for DRAM bytes: 2^28 floats (1 GiB) in and out, so that what L2 still holds
// at the end of the kernel is under 5% of either side.
constexpr std::size_t copy_n = std::size_t{1} << 28;
// Arithmetic loops: blocks x threads x iterations, known instruction counts.
constexpr unsigned loop_blocks = 528;
constexpr unsigned loop_threads = 256;
constexpr int loop_iters = 1000;
constexpr unsigned wmma_blocks = 264;
constexpr unsigned wmma_warps_per_block = 4;
// Shared-memory stores per thread in the bank-conflict kernels.
constexpr int smem_stores = 64;

namespace kernels {

__global__ void coalesced(const float* in, float* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 2.0f;
}

__global__ void strided32(const float* in, float* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[(i * 32u) % n] * 2.0f;
}

__global__ void matrix_row_major(float* m, unsigned width, unsigned height) {
  const unsigned row = blockIdx.y * blockDim.y + threadIdx.y;
  const unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < height && col < width) {
    const std::size_t idx = std::size_t{row} * width + col;
    m[idx] = m[idx] * 2.0f + 1.0f;
  }
}

__global__ void matrix_col_major(float* m, unsigned width, unsigned height) {
  const unsigned row = blockIdx.y * blockDim.y + threadIdx.y;
  const unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < height && col < width) {
    const std::size_t idx = std::size_t{col} * height + row;
    m[idx] = m[idx] * 2.0f + 1.0f;
  }
}

__global__ void ffma_loop(float* out, float a, float b, int iters) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = static_cast<float>(i & 1023u);
#pragma unroll 4
  for (int k = 0; k < iters; ++k)
    x = fmaf(x, a, b);
  out[i] = x;
}

__global__ void dfma_loop(double* out, double a, double b, int iters) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  double x = static_cast<double>(i & 1023u);
#pragma unroll 4
  for (int k = 0; k < iters; ++k)
    x = fma(x, a, b);
  out[i] = x;
}

__global__ void hfma2_loop(__half2* out, __half2 a, __half2 b, int iters) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  __half2 x = out[i];
#pragma unroll 4
  for (int k = 0; k < iters; ++k)
    x = __hfma2(x, a, b);
  out[i] = x;
}

// Each warp chains `iters` 16x16x16 FP16 MMAs with FP32 accumulation: 8192 FLOPs each.
__global__ void wmma_fp16(const __half* a, const __half* b, float* c, int iters) {
  using namespace nvcuda;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::fill_fragment(fc, 0.0f);
  for (int k = 0; k < iters; ++k)
    wmma::mma_sync(fc, fa, fb, fc);
  const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  wmma::store_matrix_sync(c + warp * 256, fc, 16, wmma::mem_row_major);
}

__global__ void copy(const float* in, float* out, std::size_t n) {
  const std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}

// Each warp stores to shared memory at a word stride: 1 -> no conflict, 32 -> 32-way.
template <int stride> __global__ void smem_stride(float* out, int stores) {
  __shared__ float tile[32 * 32];
  const unsigned lane = threadIdx.x;
  for (int k = 0; k < stores; ++k) {
    tile[(lane * stride + k) % (32 * 32)] = static_cast<float>(k);
    __syncwarp();
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + lane] = tile[lane];
}

__global__ void fill(float* p, std::size_t n, float v) {
  for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    p[i] = v + static_cast<float>(i & 7);
}

} // namespace kernels

/// Device buffers for every case; allocated once.
class workload {
public:
  workload() {
    ROOFKIT_CUDA_CHECK(cudaMalloc(&vin_, vector_n * sizeof(float)));
    ROOFKIT_CUDA_CHECK(cudaMalloc(&vout_, vector_n * sizeof(float)));
    ROOFKIT_CUDA_CHECK(cudaMalloc(&matrix_, std::size_t{matrix_side} * matrix_side * 4));
    ROOFKIT_CUDA_CHECK(cudaMalloc(&cin_, copy_n * sizeof(float)));
    ROOFKIT_CUDA_CHECK(cudaMalloc(&cout_, copy_n * sizeof(float)));
    ROOFKIT_CUDA_CHECK(cudaMalloc(&fout_, loop_blocks * loop_threads * sizeof(double)));
    ROOFKIT_CUDA_CHECK(cudaMalloc(&mma_in_, 2 * 256 * sizeof(__half)));
    ROOFKIT_CUDA_CHECK(
        cudaMalloc(&mma_out_, wmma_blocks * wmma_warps_per_block * 256 * sizeof(float)));
    kernels::fill<<<1024, 256>>>(vin_, vector_n, 1.0f);
    kernels::fill<<<1024, 256>>>(matrix_, std::size_t{matrix_side} * matrix_side, 0.5f);
    kernels::fill<<<1024, 256>>>(cin_, copy_n, 2.0f);
    ROOFKIT_CUDA_CHECK_LAUNCH();
    ROOFKIT_CUDA_CHECK(cudaMemset(fout_, 0, loop_blocks * loop_threads * sizeof(double)));
    ROOFKIT_CUDA_CHECK(cudaMemset(mma_in_, 0, 2 * 256 * sizeof(__half)));
    ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
  }
  ~workload() {
    for (void* p :
         {static_cast<void*>(vin_), static_cast<void*>(vout_), static_cast<void*>(matrix_),
          static_cast<void*>(cin_), static_cast<void*>(cout_), fout_, static_cast<void*>(mma_in_),
          static_cast<void*>(mma_out_)})
      cudaFree(p);
  }
  workload(const workload&) = delete;
  workload& operator=(const workload&) = delete;

  /// Every case, in the order the programs launch them.
  static std::vector<kernel_case> cases() {
    const double warps = vector_n / 32.0;
    const double mwarps = double{matrix_side} * matrix_side / 32.0;
    const double threads = double{loop_blocks} * loop_threads;
    const double wmma_warps = double{wmma_blocks} * wmma_warps_per_block;
    const double smem_warps = 132.0 * 8;
    std::vector<kernel_case> c(11);
    c[0].name = "coalesced";
    c[0].ld_requests = warps;    // 2,097,152
    c[0].ld_sectors = 4 * warps; // 8,388,608
    c[1].name = "strided32";
    c[1].ld_requests = warps;
    c[1].ld_sectors = 32 * warps; // 67,108,864
    c[2].name = "matrix_row_major";
    c[2].ld_requests = mwarps;    // 8,388,608
    c[2].ld_sectors = 4 * mwarps; // 33,554,432
    c[3].name = "matrix_col_major";
    c[3].ld_requests = mwarps;
    c[3].ld_sectors = 32 * mwarps; // 268,435,456
    c[4].name = "ffma_loop";
    c[4].ffma = threads * loop_iters;
    c[5].name = "dfma_loop";
    c[5].dfma = threads * loop_iters;
    c[6].name = "hfma2_loop";
    c[6].hfma = threads * loop_iters;
    c[7].name = "wmma_fp16";
    c[7].tensor_fp16_flops = wmma_warps * loop_iters * 2.0 * 16 * 16 * 16;
    c[8].name = "copy";
    c[8].dram_bytes = 2.0 * copy_n * sizeof(float);
    c[9].name = "smem_stride1";
    c[9].smem_st_wavefronts = smem_warps * smem_stores;
    c[10].name = "smem_stride32";
    c[10].smem_st_wavefronts = smem_warps * smem_stores * 32;
    return c;
  }

  /// Launches case `i` of cases() on `stream`.
  void launch(std::size_t i, cudaStream_t stream = nullptr) {
    const dim3 mgrid(matrix_side / 32, matrix_side / 32), mblock(32, 32);
    switch (i) {
    case 0:
      kernels::coalesced<<<vector_blocks, vector_threads, 0, stream>>>(vin_, vout_, vector_n);
      break;
    case 1:
      kernels::strided32<<<vector_blocks, vector_threads, 0, stream>>>(vin_, vout_, vector_n);
      break;
    case 2:
      kernels::matrix_row_major<<<mgrid, mblock, 0, stream>>>(matrix_, matrix_side, matrix_side);
      break;
    case 3:
      kernels::matrix_col_major<<<mgrid, mblock, 0, stream>>>(matrix_, matrix_side, matrix_side);
      break;
    case 4:
      kernels::ffma_loop<<<loop_blocks, loop_threads, 0, stream>>>(static_cast<float*>(fout_),
                                                                   0.999f, 0.5f, loop_iters);
      break;
    case 5:
      kernels::dfma_loop<<<loop_blocks, loop_threads, 0, stream>>>(static_cast<double*>(fout_),
                                                                   0.999, 0.5, loop_iters);
      break;
    case 6:
      kernels::hfma2_loop<<<loop_blocks, loop_threads, 0, stream>>>(
          static_cast<__half2*>(fout_), __floats2half2_rn(0.5f, 0.5f),
          __floats2half2_rn(0.25f, 0.25f), loop_iters);
      break;
    case 7:
      kernels::wmma_fp16<<<wmma_blocks, 32 * wmma_warps_per_block, 0, stream>>>(
          mma_in_, mma_in_ + 256, mma_out_, loop_iters);
      break;
    case 8:
      kernels::copy<<<static_cast<unsigned>(copy_n / 256), 256, 0, stream>>>(cin_, cout_, copy_n);
      break;
    case 9:
      kernels::smem_stride<1><<<132 * 8, 32, 0, stream>>>(vout_, smem_stores);
      break;
    case 10:
      kernels::smem_stride<32><<<132 * 8, 32, 0, stream>>>(vout_, smem_stores);
      break;
    default:
      throw usage_error("validation case " + std::to_string(i) + " does not exist");
    }
    ROOFKIT_CUDA_CHECK_LAUNCH();
  }

private:
  float* vin_ = nullptr;
  float* vout_ = nullptr;
  float* matrix_ = nullptr;
  float* cin_ = nullptr;
  float* cout_ = nullptr;
  void* fout_ = nullptr;
  __half* mma_in_ = nullptr;
  float* mma_out_ = nullptr;
};

} // namespace roofkit::validation

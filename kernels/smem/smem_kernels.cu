#include "smem/smem_kernels.hpp"

#include "common/launch.cuh"
#include "roofkit/core.hpp"

namespace roofkit::kernels {

namespace {

constexpr int warps_per_block = bank_block / 32;

template <int Ways> __global__ void bank_conflict_kernel(const float* in, float* out, unsigned n) {
  __shared__ float region[warps_per_block][1024];
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  volatile float* mine = region[warp];
  const int word = lane * Ways; // bank = word mod 32: 32 / Ways banks, Ways lanes each
  mine[word] = t < n ? in[t] : 0.0f;
  __syncwarp();
  float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
  for (int r = 0; r < bank_reps; r += 4) {
    a0 += mine[word];
    a1 += mine[word];
    a2 += mine[word];
    a3 += mine[word];
  }
  if (t < n)
    out[t] = (a0 + a1) + (a2 + a3);
}

template <int Ways> const void* symbol() {
  return reinterpret_cast<const void*>(&bank_conflict_kernel<Ways>);
}

} // namespace

void launch_bank_conflicts(const launch_config& lc, int ways, const float* in, float* out,
                           unsigned n, cudaStream_t stream) {
  const dim3 g = grid_of(lc), b = block_of(lc);
  switch (ways) {
  case 1:
    bank_conflict_kernel<1><<<g, b, 0, stream>>>(in, out, n);
    break;
  case 2:
    bank_conflict_kernel<2><<<g, b, 0, stream>>>(in, out, n);
    break;
  case 4:
    bank_conflict_kernel<4><<<g, b, 0, stream>>>(in, out, n);
    break;
  case 8:
    bank_conflict_kernel<8><<<g, b, 0, stream>>>(in, out, n);
    break;
  case 16:
    bank_conflict_kernel<16><<<g, b, 0, stream>>>(in, out, n);
    break;
  case 32:
    bank_conflict_kernel<32><<<g, b, 0, stream>>>(in, out, n);
    break;
  default:
    throw usage_error("bank-conflict ways must be 1, 2, 4, 8, 16 or 32");
  }
  ROOFKIT_CUDA_CHECK(cudaGetLastError());
}

const void* bank_conflict_function(int ways) {
  switch (ways) {
  case 1:
    return symbol<1>();
  case 2:
    return symbol<2>();
  case 4:
    return symbol<4>();
  case 8:
    return symbol<8>();
  case 16:
    return symbol<16>();
  case 32:
    return symbol<32>();
  default:
    return nullptr;
  }
}

} // namespace roofkit::kernels

// The register cliff as a sweep: the fold body of kernels/registers with 26 accumulators,
// compiled once per register cap with __maxnreg__. ptxas decides the registers and spills of
// each variant; the sweep reads them back (function attributes, ptxas log), never assumes them.
#include "cliff/cliff_kernels.hpp"

#include <string>

#include "common/launch.cuh"
#include "registers/fold.cuh"
#include "roofkit/core.hpp"

namespace roofkit::kernels {

namespace {

template <int Cap>
__global__ void __maxnreg__(Cap)
    fold_cap_kernel(const float* __restrict__ in, float* __restrict__ out, unsigned n) {
  fold<cliff_fold_accumulators>(in, out, n);
}

template <int... Caps> struct cap_table {
  static const void* function(int cap) {
    const void* fn = nullptr;
    ((cap == Caps ? (fn = reinterpret_cast<const void*>(&fold_cap_kernel<Caps>)) : nullptr), ...);
    return fn;
  }
  static bool launch(int cap, dim3 g, dim3 b, unsigned smem, cudaStream_t s, const float* in,
                     float* out, unsigned n) {
    return ((cap == Caps ? (fold_cap_kernel<Caps><<<g, b, smem, s>>>(in, out, n), true) : false) ||
            ...);
  }
  static std::vector<int> caps() { return {Caps...}; }
};

using caps = cap_table<24, 26, 28, 30, 31, 32, 33, 34, 36, 38, 40, 48, 56, 64>;

} // namespace

const std::vector<int>& cliff_register_caps() {
  static const std::vector<int> list = caps::caps();
  return list;
}

const void* cliff_fold_function(int cap) { return caps::function(cap); }

void launch_cliff_fold(const launch_config& lc, int cap, const float* in, float* out,
                       std::uint32_t n, cudaStream_t stream) {
  const void* fn = cliff_fold_function(cap);
  if (!fn)
    throw runtime_error("register cap " + std::to_string(cap) + " has no compiled variant");
  if (lc.dynamic_smem_bytes > 48 * 1024)
    ROOFKIT_CUDA_CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            static_cast<int>(lc.dynamic_smem_bytes)));
  caps::launch(cap, grid_of(lc), block_of(lc), lc.dynamic_smem_bytes, stream, in, out, n);
  ROOFKIT_CUDA_CHECK(cudaGetLastError());
}

} // namespace roofkit::kernels

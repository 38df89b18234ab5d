// Tensor-core throughput through warpgroup-level wgmma (sm_90a only): FP16, BF16, TF32, FP8 and
// INT8, m64n256 tiles with both operands in shared memory. Built for sm_90a in its own object.
#include "clock_probe.cuh"

namespace roofkit::ceiling_kernels {

namespace {

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define ROOFKIT_WGMMA_ENABLED 1
#endif

// The 128 accumulator registers of an m64n256 tile, as inline-asm operands and placeholders.
#define ROOFKIT_WG_ACC8(C, b)                                                                      \
  C(d[b + 0]), C(d[b + 1]), C(d[b + 2]), C(d[b + 3]), C(d[b + 4]), C(d[b + 5]), C(d[b + 6]),       \
      C(d[b + 7])
#define ROOFKIT_WG_ACC128(C)                                                                       \
  ROOFKIT_WG_ACC8(C, 0), ROOFKIT_WG_ACC8(C, 8), ROOFKIT_WG_ACC8(C, 16), ROOFKIT_WG_ACC8(C, 24),    \
      ROOFKIT_WG_ACC8(C, 32), ROOFKIT_WG_ACC8(C, 40), ROOFKIT_WG_ACC8(C, 48),                      \
      ROOFKIT_WG_ACC8(C, 56), ROOFKIT_WG_ACC8(C, 64), ROOFKIT_WG_ACC8(C, 72),                      \
      ROOFKIT_WG_ACC8(C, 80), ROOFKIT_WG_ACC8(C, 88), ROOFKIT_WG_ACC8(C, 96),                      \
      ROOFKIT_WG_ACC8(C, 104), ROOFKIT_WG_ACC8(C, 112), ROOFKIT_WG_ACC8(C, 120)
#define ROOFKIT_WG_D                                                                               \
  "{"                                                                                              \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, "               \
  "%18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, "               \
  "%34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, "               \
  "%50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, "               \
  "%66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, "               \
  "%82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, "               \
  "%98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "             \
  "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, "           \
  "%126, %127"                                                                                     \
  "}"

// A in [0, 4 KiB) and B in [4 KiB, 16 KiB), all ones; in [16 KiB, 24 KiB) a second B of minus
// ones for the types whose accumulation is not exact in FP32 (see wg<fp8>::alternate).
constexpr int smem_bytes = 24576;

// Shared-memory matrix descriptor without swizzling: start address, leading-dimension byte
// offset (between 8x16-byte core matrices along K) and stride byte offset (along M or N).
__device__ __forceinline__ unsigned long long descriptor(unsigned smem_addr) {
  const unsigned long long lbo = 128, sbo = 256;
  return ((smem_addr & 0x3FFFFull) >> 4) | ((lbo >> 4) << 16) | ((sbo >> 4) << 32);
}

template <wgmma_type t> struct wg;
template <> struct wg<wgmma_type::fp16> {
  using acc = float;
  static constexpr int k = 16;
  static constexpr unsigned one = 0x3C003C00u;
  static constexpr unsigned minus_one = 0xBC00BC00u;
  static constexpr bool alternate = false;
  static __device__ __forceinline__ void mma(float* d, unsigned long long a, unsigned long long b) {
#ifdef ROOFKIT_WGMMA_ENABLED
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 " ROOFKIT_WG_D
                 ", %128, %129, p, 1, 1, 0, 0;\n}\n"
                 : ROOFKIT_WG_ACC128("+f")
                 : "l"(a), "l"(b), "r"(1));
#endif
  }
};
template <> struct wg<wgmma_type::bf16> {
  using acc = float;
  static constexpr int k = 16;
  static constexpr unsigned one = 0x3F803F80u;
  static constexpr unsigned minus_one = 0xBF80BF80u;
  static constexpr bool alternate = false;
  static __device__ __forceinline__ void mma(float* d, unsigned long long a, unsigned long long b) {
#ifdef ROOFKIT_WGMMA_ENABLED
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 " ROOFKIT_WG_D
                 ", %128, %129, p, 1, 1, 0, 0;\n}\n"
                 : ROOFKIT_WG_ACC128("+f")
                 : "l"(a), "l"(b), "r"(1));
#endif
  }
};
template <> struct wg<wgmma_type::tf32> {
  using acc = float;
  static constexpr int k = 8;
  static constexpr unsigned one = 0x3F800000u;
  static constexpr unsigned minus_one = 0xBF800000u;
  static constexpr bool alternate = false;
  static __device__ __forceinline__ void mma(float* d, unsigned long long a, unsigned long long b) {
#ifdef ROOFKIT_WGMMA_ENABLED
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 " ROOFKIT_WG_D
                 ", %128, %129, p, 1, 1;\n}\n"
                 : ROOFKIT_WG_ACC128("+f")
                 : "l"(a), "l"(b), "r"(1));
#endif
  }
};
template <> struct wg<wgmma_type::fp8> {
  using acc = float;
  static constexpr int k = 32;
  static constexpr unsigned one = 0x38383838u;       // e4m3 1.0
  static constexpr unsigned minus_one = 0xB8B8B8B8u; // e4m3 -1.0
  // Hopper adds FP8 products into the FP32 accumulator with only about 14 bits kept (DeepSeek-V3
  // technical report, section 3.3.2), so a growing sum of ones stops being exact: B alternates
  // between +1 and -1 and the accumulator between k and 0, exact at any precision.
  static constexpr bool alternate = true;
  static __device__ __forceinline__ void mma(float* d, unsigned long long a, unsigned long long b) {
#ifdef ROOFKIT_WGMMA_ENABLED
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3 " ROOFKIT_WG_D
                 ", %128, %129, p, 1, 1;\n}\n"
                 : ROOFKIT_WG_ACC128("+f")
                 : "l"(a), "l"(b), "r"(1));
#endif
  }
};
template <> struct wg<wgmma_type::int8> {
  using acc = int;
  static constexpr int k = 32;
  static constexpr unsigned one = 0x01010101u;
  static constexpr unsigned minus_one = 0xFFFFFFFFu;
  static constexpr bool alternate = false;
  static __device__ __forceinline__ void mma(int* d, unsigned long long a, unsigned long long b) {
#ifdef ROOFKIT_WGMMA_ENABLED
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n256k32.s32.s8.s8 " ROOFKIT_WG_D
                 ", %128, %129, p;\n}\n"
                 : ROOFKIT_WG_ACC128("+r")
                 : "l"(a), "l"(b), "r"(1));
#endif
  }
};

template <wgmma_type t>
__global__ void __launch_bounds__(128)
    wgmma_kernel(int iterations, unsigned one, clock_sample* clk, unsigned* errors) {
  using traits = wg<t>;
  __shared__ __align__(1024) unsigned smem[smem_bytes / 4];
  clock_begin(clk);
#ifdef ROOFKIT_WGMMA_ENABLED
  constexpr int minus_b_offset = 16384;
  for (int i = threadIdx.x; i < smem_bytes / 4; i += blockDim.x)
    smem[i] = i < minus_b_offset / 4 ? one : traits::minus_one;
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  const unsigned long long da = descriptor(base), db = descriptor(base + 4096);
  const unsigned long long db_minus = descriptor(base + minus_b_offset);
  typename traits::acc d[128];
#pragma unroll
  for (int i = 0; i < 128; ++i)
    d[i] = 0;
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  const unsigned long long db2 = traits::alternate ? db_minus : db;
  for (int i = 0; i < iterations; ++i) {
    traits::mma(d, da, db);
    traits::mma(d, da, db2);
    traits::mma(d, da, db);
    traits::mma(d, da, db2);
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
  }
  if (traits::alternate) { // one more +1 step, so that a kernel that did nothing cannot pass
    traits::mma(d, da, db);
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  }
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
  const typename traits::acc expected =
      typename traits::acc(traits::alternate ? traits::k : traits::k * 4 * iterations);
  bool ok = true;
#pragma unroll
  for (int i = 0; i < 128; ++i)
    ok = ok && d[i] == expected;
  check_equal(ok, errors);
#else
  (void)iterations;
  (void)one;
  check_equal(false, errors); // not built for sm_90a: the measurement is rejected
#endif
  clock_end(clk);
}

} // namespace

#ifdef ROOFKIT_WGMMA_NOT_BUILT
bool wgmma_built() { return false; } // no 90 in CMAKE_CUDA_ARCHITECTURES: kernels reject only
#else
bool wgmma_built() { return true; }
#endif

void wgmma_loop(wgmma_type type, int iterations, const shape& s) {
  switch (type) {
  case wgmma_type::fp16:
    wgmma_kernel<wgmma_type::fp16>
        <<<s.blocks, 128, 0, s.stream>>>(iterations, wg<wgmma_type::fp16>::one, s.clock, s.errors);
    break;
  case wgmma_type::bf16:
    wgmma_kernel<wgmma_type::bf16>
        <<<s.blocks, 128, 0, s.stream>>>(iterations, wg<wgmma_type::bf16>::one, s.clock, s.errors);
    break;
  case wgmma_type::tf32:
    wgmma_kernel<wgmma_type::tf32>
        <<<s.blocks, 128, 0, s.stream>>>(iterations, wg<wgmma_type::tf32>::one, s.clock, s.errors);
    break;
  case wgmma_type::fp8:
    wgmma_kernel<wgmma_type::fp8>
        <<<s.blocks, 128, 0, s.stream>>>(iterations, wg<wgmma_type::fp8>::one, s.clock, s.errors);
    break;
  case wgmma_type::int8:
    wgmma_kernel<wgmma_type::int8>
        <<<s.blocks, 128, 0, s.stream>>>(iterations, wg<wgmma_type::int8>::one, s.clock, s.errors);
    break;
  }
}

double wgmma_flops(wgmma_type type) {
  switch (type) {
  case wgmma_type::fp16:
  case wgmma_type::bf16:
    return 2.0 * 64 * 256 * 16;
  case wgmma_type::tf32:
    return 2.0 * 64 * 256 * 8;
  case wgmma_type::fp8:
  case wgmma_type::int8:
    return 2.0 * 64 * 256 * 32;
  }
  return 0;
}

} // namespace roofkit::ceiling_kernels

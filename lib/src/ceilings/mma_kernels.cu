// Tensor-core throughput through warp-level mma.sync: FP16, BF16, TF32, INT8 and FP64.
#include "clock_probe.cuh"

namespace roofkit::ceiling_kernels {

namespace {

struct acc4f {
  float v[4];
};
struct acc4i {
  int v[4];
};
struct acc2d {
  double v[2];
};
struct acc4d {
  double v[4];
};

template <mma_type t> struct mma_traits;
template <> struct mma_traits<mma_type::fp16> {
  using acc = acc4f;
  static constexpr int k = 16;
  static __device__ __forceinline__ void run(acc& d, unsigned a, unsigned b) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(d.v[0]), "+f"(d.v[1]), "+f"(d.v[2]), "+f"(d.v[3])
                 : "r"(a), "r"(a), "r"(a), "r"(a), "r"(b), "r"(b));
  }
};
template <> struct mma_traits<mma_type::bf16> {
  using acc = acc4f;
  static constexpr int k = 16;
  static __device__ __forceinline__ void run(acc& d, unsigned a, unsigned b) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(d.v[0]), "+f"(d.v[1]), "+f"(d.v[2]), "+f"(d.v[3])
                 : "r"(a), "r"(a), "r"(a), "r"(a), "r"(b), "r"(b));
  }
};
template <> struct mma_traits<mma_type::tf32> {
  using acc = acc4f;
  static constexpr int k = 8;
  static __device__ __forceinline__ void run(acc& d, unsigned a, unsigned b) {
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(d.v[0]), "+f"(d.v[1]), "+f"(d.v[2]), "+f"(d.v[3])
                 : "r"(a), "r"(a), "r"(a), "r"(a), "r"(b), "r"(b));
  }
};
template <> struct mma_traits<mma_type::int8> {
  using acc = acc4i;
  static constexpr int k = 32;
  static __device__ __forceinline__ void run(acc& d, unsigned a, unsigned b) {
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+r"(d.v[0]), "+r"(d.v[1]), "+r"(d.v[2]), "+r"(d.v[3])
                 : "r"(a), "r"(a), "r"(a), "r"(a), "r"(b), "r"(b));
  }
};
template <> struct mma_traits<mma_type::fp64> {
  using acc = acc2d;
  static constexpr int k = 4;
  static __device__ __forceinline__ void run(acc& d, unsigned long long a, unsigned long long b) {
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, "
                 "{%0, %1};"
                 : "+d"(d.v[0]), "+d"(d.v[1])
                 : "d"(__longlong_as_double(a)), "d"(__longlong_as_double(b)));
  }
};

template <> struct mma_traits<mma_type::fp64_m16n8k16> {
  using acc = acc4d;
  static constexpr int k = 16;
  static __device__ __forceinline__ void run(acc& d, unsigned long long a, unsigned long long b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    const double x = __longlong_as_double(a), y = __longlong_as_double(b);
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15}, {%0, %1, %2, %3};"
                 : "+d"(d.v[0]), "+d"(d.v[1]), "+d"(d.v[2]), "+d"(d.v[3])
                 : "d"(x), "d"(x), "d"(x), "d"(x), "d"(x), "d"(x), "d"(x), "d"(x), "d"(y), "d"(y),
                   "d"(y), "d"(y));
#else
    (void)d, (void)a, (void)b;
#endif
  }
};

// Operands are the bit patterns of 1 in each format, passed at run time.
template <mma_type t, int chains>
__global__ void mma_kernel(int iterations, unsigned long long one_a, unsigned long long one_b,
                           clock_sample* clk, unsigned* errors) {
  using traits = mma_traits<t>;
  clock_begin(clk);
  typename traits::acc acc[chains];
#pragma unroll
  for (int c = 0; c < chains; ++c)
    for (auto& v : acc[c].v)
      v = 0;
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int c = 0; c < chains; ++c) {
      if constexpr (t == mma_type::fp64 || t == mma_type::fp64_m16n8k16)
        traits::run(acc[c], one_a, one_b);
      else
        traits::run(acc[c], unsigned(one_a), unsigned(one_b));
    }
  }
  bool ok = true;
  const double expected = double(traits::k) * iterations;
#pragma unroll
  for (int c = 0; c < chains; ++c)
    for (auto v : acc[c].v)
      ok = ok && double(v) == expected;
  check_equal(ok, errors);
  clock_end(clk);
}

template <mma_type t>
void launch(int chains, int iterations, unsigned long long a, unsigned long long b,
            const shape& s) {
  if (chains <= 4)
    mma_kernel<t, 4><<<s.blocks, s.threads, 0, s.stream>>>(iterations, a, b, s.clock, s.errors);
  else
    mma_kernel<t, 8><<<s.blocks, s.threads, 0, s.stream>>>(iterations, a, b, s.clock, s.errors);
}

} // namespace

void mma_loop(mma_type type, int chains, int iterations, const shape& s) {
  switch (type) {
  case mma_type::fp16:
    launch<mma_type::fp16>(chains, iterations, 0x3C003C00u, 0x3C003C00u, s);
    break;
  case mma_type::bf16:
    launch<mma_type::bf16>(chains, iterations, 0x3F803F80u, 0x3F803F80u, s);
    break;
  case mma_type::tf32:
    launch<mma_type::tf32>(chains, iterations, 0x3F800000u, 0x3F800000u, s);
    break;
  case mma_type::int8:
    launch<mma_type::int8>(chains, iterations, 0x01010101u, 0x01010101u, s);
    break;
  case mma_type::fp64:
    launch<mma_type::fp64>(chains, iterations, 0x3FF0000000000000ull, 0x3FF0000000000000ull, s);
    break;
  case mma_type::fp64_m16n8k16:
    launch<mma_type::fp64_m16n8k16>(chains, iterations, 0x3FF0000000000000ull,
                                    0x3FF0000000000000ull, s);
    break;
  }
}

double mma_flops(mma_type type) {
  switch (type) {
  case mma_type::fp16:
  case mma_type::bf16:
    return 2.0 * 16 * 8 * 16;
  case mma_type::tf32:
    return 2.0 * 16 * 8 * 8;
  case mma_type::int8:
    return 2.0 * 16 * 8 * 32;
  case mma_type::fp64:
    return 2.0 * 8 * 8 * 4;
  case mma_type::fp64_m16n8k16:
    return 2.0 * 16 * 8 * 16;
  }
  return 0;
}

} // namespace roofkit::ceiling_kernels

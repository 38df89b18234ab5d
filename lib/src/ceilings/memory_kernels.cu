// Memory microbenchmarks: DRAM streams, working-set sweeps and shared memory.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include "clock_probe.cuh"

namespace roofkit::ceiling_kernels {

namespace {

__device__ __forceinline__ float hash_unit(std::size_t i, unsigned seed) {
  unsigned x = static_cast<unsigned>(i) * 2654435761u ^ (static_cast<unsigned>(i >> 32) + seed);
  x ^= x >> 15;
  x *= 2246822519u;
  x ^= x >> 13;
  return float(x & 0xffffff) / float(1 << 23) - 1.0f; // [-1, 1)
}

template <class T> __device__ T from_float(float v) { return T(v); }
template <> __device__ __half from_float<__half>(float v) { return __float2half(v); }
template <> __device__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) {
  return __float2bfloat16(v);
}
template <> __device__ __nv_fp8_e4m3 from_float<__nv_fp8_e4m3>(float v) { return __nv_fp8_e4m3(v); }

template <class T> __global__ void fill_random_kernel(T* data, std::size_t count, unsigned seed) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    data[i] = from_float<T>(hash_unit(i, seed));
}

__global__ void fill_kernel(float* data, std::size_t count, float value) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    data[i] = value;
}

__device__ __forceinline__ float4 add4(float4 a, float4 b) {
  return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

__device__ __forceinline__ bool all_equal(float4 v, float e) {
  return v.x == e && v.y == e && v.z == e && v.w == e;
}

// Grid-stride stream, four independent elements per thread and iteration.
template <int kind>
__global__ void stream_kernel(float4* __restrict__ a, const float4* __restrict__ b,
                              const float4* __restrict__ c, std::size_t count, float expected,
                              clock_sample* clk, unsigned* errors) {
  clock_begin(clk);
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  const std::size_t first = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const float s = 0.5f;
  float4 acc = make_float4(0, 0, 0, 0);
  float n = 0;
  std::size_t i = first;
  for (; i + 3 * stride < count; i += 4 * stride) {
    if constexpr (kind == 0) {
      const float4 v0 = __ldcs(b + i), v1 = __ldcs(b + i + stride), v2 = __ldcs(b + i + 2 * stride),
                   v3 = __ldcs(b + i + 3 * stride);
      acc = add4(acc, add4(add4(v0, v1), add4(v2, v3)));
      n += 4;
    } else if constexpr (kind == 1) {
      const float4 v = make_float4(expected, expected, expected, expected);
      __stcs(a + i, v);
      __stcs(a + i + stride, v);
      __stcs(a + i + 2 * stride, v);
      __stcs(a + i + 3 * stride, v);
    } else if constexpr (kind == 2) {
      const float4 v0 = __ldcs(b + i), v1 = __ldcs(b + i + stride), v2 = __ldcs(b + i + 2 * stride),
                   v3 = __ldcs(b + i + 3 * stride);
      __stcs(a + i, v0);
      __stcs(a + i + stride, v1);
      __stcs(a + i + 2 * stride, v2);
      __stcs(a + i + 3 * stride, v3);
    } else {
      float4 v[4];
#pragma unroll
      for (int u = 0; u < 4; ++u) {
        const float4 x = __ldcs(b + i + u * stride), y = __ldcs(c + i + u * stride);
        v[u] = make_float4(x.x + s * y.x, x.y + s * y.y, x.z + s * y.z, x.w + s * y.w);
      }
#pragma unroll
      for (int u = 0; u < 4; ++u)
        __stcs(a + i + u * stride, v[u]);
    }
  }
  for (; i < count; i += stride) {
    if constexpr (kind == 0) {
      acc = add4(acc, __ldcs(b + i));
      n += 1;
    } else if constexpr (kind == 1) {
      __stcs(a + i, make_float4(expected, expected, expected, expected));
    } else if constexpr (kind == 2) {
      __stcs(a + i, __ldcs(b + i));
    } else {
      const float4 x = __ldcs(b + i), y = __ldcs(c + i);
      __stcs(a + i, make_float4(x.x + s * y.x, x.y + s * y.y, x.z + s * y.z, x.w + s * y.w));
    }
  }
  if constexpr (kind == 0)
    check_equal(all_equal(acc, n * expected), errors);
  clock_end(clk);
}

template <int kind> __device__ __forceinline__ float4 load_sweep(const float4* p) {
  if constexpr (kind == 0)
    return __ldca(p);
  else if constexpr (kind == 1)
    return __ldcg(p);
  else {
    const float2* q = reinterpret_cast<const float2*>(p);
    const float2 lo = __ldcg(q), hi = __ldcg(q + 1);
    return make_float4(lo.x, lo.y, hi.x, hi.y);
  }
}

// Working-set sweep: each block goes over its own slice `passes` times.
template <int kind>
__global__ void sweep_kernel(float4* __restrict__ a, const float4* __restrict__ b,
                             const float4* __restrict__ c, std::size_t slice, int passes,
                             float expected, clock_sample* clk, unsigned* errors) {
  clock_begin(clk);
  const std::size_t base = std::size_t(blockIdx.x) * slice;
  if constexpr (kind <= 2) {
    float4 acc0 = make_float4(0, 0, 0, 0), acc1 = acc0;
    float n = 0;
    for (int p = 0; p < passes; ++p) {
      std::size_t i = threadIdx.x;
      for (; i + blockDim.x < slice; i += 2 * blockDim.x) {
        acc0 = add4(acc0, load_sweep<kind>(b + base + i));
        acc1 = add4(acc1, load_sweep<kind>(b + base + i + blockDim.x));
        n += 2;
      }
      if (i < slice) {
        acc0 = add4(acc0, load_sweep<kind>(b + base + i));
        n += 1;
      }
    }
    check_equal(all_equal(add4(acc0, acc1), n * expected), errors);
  } else {
    const float s = 0.5f;
    for (int p = 0; p < passes; ++p)
      for (std::size_t i = threadIdx.x; i < slice; i += blockDim.x) {
        if constexpr (kind == 3) {
          a[base + i] = make_float4(expected, expected, expected, float(p));
        } else if constexpr (kind == 4) {
          a[base + i] = __ldcg(b + base + i);
        } else {
          const float4 x = __ldcg(b + base + i), y = __ldcg(c + base + i);
          a[base + i] = make_float4(x.x + s * y.x, x.y + s * y.y, x.z + s * y.z, x.w + s * y.w);
        }
      }
  }
  clock_end(clk);
}

constexpr int shared_elems = 2048; // float4: 32 KiB

__global__ void shared_read_kernel(int iterations, float* sink, clock_sample* clk,
                                   unsigned* errors) {
  __shared__ float4 buf[shared_elems];
  clock_begin(clk);
  for (int i = threadIdx.x; i < shared_elems; i += blockDim.x)
    buf[i] = make_float4(1, 1, 1, 1);
  __syncthreads();
  float4 acc0 = make_float4(0, 0, 0, 0), acc1 = acc0;
  const unsigned lane = threadIdx.x;
#pragma unroll 8
  for (int i = 0; i < iterations; i += 2) {
    acc0 = add4(acc0, buf[(lane + unsigned(i) * 96u) & (shared_elems - 1)]);
    acc1 = add4(acc1, buf[(lane + unsigned(i + 1) * 96u) & (shared_elems - 1)]);
  }
  const float4 acc = add4(acc0, acc1);
  check_equal(all_equal(acc, float((iterations + 1) / 2 * 2)), errors);
  if (acc.x < 0)
    sink[threadIdx.x] = acc.x; // never taken; keeps the sum alive
  clock_end(clk);
}

// Every lane of a warp reads a different word of one bank: 32 wavefronts per warp load, so the
// loop is bound by the shared-memory data path (one wavefront per clock) and not by issue.
__global__ void shared_wavefront_kernel(int iterations, float* sink, clock_sample* clk,
                                        unsigned* errors) {
  __shared__ float buf[32 * 32];
  clock_begin(clk);
  for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x)
    buf[i] = 1.0f;
  __syncthreads();
  float acc0 = 0, acc1 = 0;
  const unsigned row = (threadIdx.x & 31u) * 32u;
#pragma unroll 8
  for (int i = 0; i < iterations; i += 2) {
    acc0 += buf[row + (unsigned(i) & 31u)];
    acc1 += buf[row + (unsigned(i + 1) & 31u)];
  }
  const float acc = acc0 + acc1;
  check_equal(acc == float((iterations + 1) / 2 * 2), errors);
  if (acc < 0)
    sink[threadIdx.x] = acc; // never taken; keeps the sum alive
  clock_end(clk);
}

} // namespace

void fill_float(float* data, std::size_t count, float value, cudaStream_t stream) {
  fill_kernel<<<1024, 256, 0, stream>>>(data, count, value);
}

void fill_random(void* data, std::size_t count, int kind, unsigned seed, cudaStream_t stream) {
  switch (kind) {
  case 0:
    fill_random_kernel<<<1024, 256, 0, stream>>>(static_cast<float*>(data), count, seed);
    break;
  case 1:
    fill_random_kernel<<<1024, 256, 0, stream>>>(static_cast<double*>(data), count, seed);
    break;
  case 2:
    fill_random_kernel<<<1024, 256, 0, stream>>>(static_cast<__half*>(data), count, seed);
    break;
  case 3:
    fill_random_kernel<<<1024, 256, 0, stream>>>(static_cast<__nv_bfloat16*>(data), count, seed);
    break;
  default:
    fill_random_kernel<<<1024, 256, 0, stream>>>(static_cast<__nv_fp8_e4m3*>(data), count, seed);
    break;
  }
}

void stream(int kind, float* a, const float* b, const float* c, std::size_t count,
            float expected_value, const shape& s) {
  auto* a4 = reinterpret_cast<float4*>(a);
  auto* b4 = reinterpret_cast<const float4*>(b);
  auto* c4 = reinterpret_cast<const float4*>(c);
  switch (kind) {
  case 0:
    stream_kernel<0><<<s.blocks, s.threads, 0, s.stream>>>(a4, b4, c4, count, expected_value,
                                                           s.clock, s.errors);
    break;
  case 1:
    stream_kernel<1><<<s.blocks, s.threads, 0, s.stream>>>(a4, b4, c4, count, expected_value,
                                                           s.clock, s.errors);
    break;
  case 2:
    stream_kernel<2><<<s.blocks, s.threads, 0, s.stream>>>(a4, b4, c4, count, expected_value,
                                                           s.clock, s.errors);
    break;
  default:
    stream_kernel<3><<<s.blocks, s.threads, 0, s.stream>>>(a4, b4, c4, count, expected_value,
                                                           s.clock, s.errors);
    break;
  }
}

void sweep(int kind, float* a, const float* b, const float* c, std::size_t slice4, int passes,
           float expected_value, const shape& s) {
  auto* a4 = reinterpret_cast<float4*>(a);
  auto* b4 = reinterpret_cast<const float4*>(b);
  auto* c4 = reinterpret_cast<const float4*>(c);
#define ROOFKIT_SWEEP_CASE(k)                                                                      \
  case k:                                                                                          \
    sweep_kernel<k><<<s.blocks, s.threads, 0, s.stream>>>(a4, b4, c4, slice4, passes,              \
                                                          expected_value, s.clock, s.errors);      \
    break;
  switch (kind) {
    ROOFKIT_SWEEP_CASE(0)
    ROOFKIT_SWEEP_CASE(1)
    ROOFKIT_SWEEP_CASE(2)
    ROOFKIT_SWEEP_CASE(3)
    ROOFKIT_SWEEP_CASE(4)
  default:
    ROOFKIT_SWEEP_CASE(5)
  }
#undef ROOFKIT_SWEEP_CASE
}

void shared_read(int iterations, float* sink, const shape& s) {
  shared_read_kernel<<<s.blocks, s.threads, 0, s.stream>>>(iterations, sink, s.clock, s.errors);
}

void shared_wavefronts(int iterations, float* sink, const shape& s) {
  shared_wavefront_kernel<<<s.blocks, s.threads, 0, s.stream>>>(iterations, sink, s.clock,
                                                                s.errors);
}

} // namespace roofkit::ceiling_kernels

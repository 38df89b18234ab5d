#include "vector/vector_kernels.hpp"

#include "common/launch.cuh"
#include "roofkit/core.hpp"

namespace roofkit::kernels {

namespace {

__global__ void copy_scalar_kernel(const int* in, int* out, std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(blockDim.x) * gridDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    out[i] = in[i];
}

// V is int2 or int4; Width its number of ints. cudaMalloc'd pointers are 256-byte aligned.
template <class V, int Width>
__global__ void copy_vector_kernel(const int* in, int* out, std::size_t n) {
  const std::size_t t = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t stride = static_cast<std::size_t>(blockDim.x) * gridDim.x;
  const std::size_t vectors = n / Width;
  const V* vin = reinterpret_cast<const V*>(in);
  V* vout = reinterpret_cast<V*>(out);
  for (std::size_t i = t; i < vectors; i += stride)
    vout[i] = vin[i];
  const std::size_t tail = n - vectors * Width; // 0 .. Width-1 ints left over
  if (t < tail)
    out[vectors * Width + t] = in[vectors * Width + t];
}

__global__ void scale_float3_kernel(const float3* in, float3* out, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    const float3 v = in[i];
    out[i] = make_float3(2.0f * v.x, 2.0f * v.y, 2.0f * v.z);
  }
}

__global__ void scale_float4_kernel(const float4* in, float4* out, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    const float4 v = in[i];
    out[i] = make_float4(2.0f * v.x, 2.0f * v.y, 2.0f * v.z, 2.0f * v.w);
  }
}

} // namespace

void launch_copy(const launch_config& lc, int width, const int* in, int* out, std::size_t n,
                 cudaStream_t stream) {
  const dim3 g = grid_of(lc), b = block_of(lc);
  switch (width) {
  case 1:
    copy_scalar_kernel<<<g, b, 0, stream>>>(in, out, n);
    break;
  case 2:
    copy_vector_kernel<int2, 2><<<g, b, 0, stream>>>(in, out, n);
    break;
  case 4:
    copy_vector_kernel<int4, 4><<<g, b, 0, stream>>>(in, out, n);
    break;
  default:
    throw usage_error("copy width must be 1, 2 or 4");
  }
  ROOFKIT_CUDA_CHECK(cudaGetLastError());
}

void launch_scale_float3(const launch_config& lc, const float* in, float* out, std::size_t n,
                         cudaStream_t stream) {
  scale_float3_kernel<<<grid_of(lc), block_of(lc), 0, stream>>>(reinterpret_cast<const float3*>(in),
                                                                reinterpret_cast<float3*>(out), n);
  ROOFKIT_CUDA_CHECK(cudaGetLastError());
}

void launch_scale_float4(const launch_config& lc, const float* in, float* out, std::size_t n,
                         cudaStream_t stream) {
  scale_float4_kernel<<<grid_of(lc), block_of(lc), 0, stream>>>(reinterpret_cast<const float4*>(in),
                                                                reinterpret_cast<float4*>(out), n);
  ROOFKIT_CUDA_CHECK(cudaGetLastError());
}

const void* copy_function(int width) {
  switch (width) {
  case 1:
    return reinterpret_cast<const void*>(&copy_scalar_kernel);
  case 2:
    return reinterpret_cast<const void*>(&copy_vector_kernel<int2, 2>);
  case 4:
    return reinterpret_cast<const void*>(&copy_vector_kernel<int4, 4>);
  default:
    return nullptr;
  }
}

const void* scale_float3_function() { return reinterpret_cast<const void*>(&scale_float3_kernel); }
const void* scale_float4_function() { return reinterpret_cast<const void*>(&scale_float4_kernel); }

} // namespace roofkit::kernels

// __launch_bounds__(T, B) kernels under high register pressure: ptxas gives each the largest
// register count (a multiple of 8) at which B blocks of T threads fit, the value
// occupancy-calc suggest prints. Output in launch_bounds_sm80_sm90.log (see README.md).
template <int N> __device__ __forceinline__ float churn(const float* in, int n) {
  float acc[N];
#pragma unroll
  for (int i = 0; i < N; ++i)
    acc[i] = in[threadIdx.x + i * 7];
  for (int k = 0; k < n; ++k) {
#pragma unroll
    for (int i = 0; i < N; ++i)
      acc[i] = fmaf(acc[i], acc[(i + 3) % N], in[k + i]);
  }
  float s = 0;
#pragma unroll
  for (int i = 0; i < N; ++i)
    s += acc[i] * (i + 1);
  return s;
}
template <int T, int B>
__global__ void __launch_bounds__(T, B) bounded(const float* in, float* out, int n) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = churn<200>(in, n);
}
template __global__ void bounded<800, 1>(const float*, float*, int);
template __global__ void bounded<640, 2>(const float*, float*, int);
template __global__ void bounded<384, 3>(const float*, float*, int);
template __global__ void bounded<96, 16>(const float*, float*, int);
template __global__ void bounded<256, 8>(const float*, float*, int);
template __global__ void bounded<256, 5>(const float*, float*, int);
template __global__ void bounded<1024, 2>(const float*, float*, int);
template __global__ void bounded<128, 12>(const float*, float*, int);
template __global__ void bounded<512, 3>(const float*, float*, int);
template __global__ void bounded<64, 20>(const float*, float*, int);

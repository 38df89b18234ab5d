#!/usr/bin/env bash
# Captures Nsight Compute's rule results (details page) and launch metrics for a few small kernels
# and the first launches of a PyTorch script, as samples for the diagnosis comparer's parser.
# Usage (on the GPU machine): OUT=dir validation/lab/ncu-details-sample.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-out/ncu-sample}"; mkdir -p "$OUT"; W=$(mktemp -d)
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm,clocks.max.mem,clocks.sm,memory.total --format=csv
  nvidia-smi -q -d CLOCK | head -40; ncu --version; nvcc --version | tail -2; } > "$OUT/facts.txt" 2>&1
cat > "$W/sample.cu" <<'CU'
#include <cstdio>
#include <cuda_runtime.h>
__global__ void strided_copy(const float* a, float* b, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = a[(long long)i * stride % n];
}
__global__ void bank_conflict(float* out, int ways) {
  __shared__ float s[32 * 33];
  int t = threadIdx.x;
  s[(t * ways) % (32 * 32)] = t;
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = s[(t * ways) % (32 * 32)];
}
__global__ void small_grid(float* x, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) x[i] = x[i] * 2.f + 1.f;
}
int main() {
  int n = 1 << 24; float *a, *b;
  cudaMalloc(&a, n * 4); cudaMalloc(&b, n * 4); cudaMemset(a, 1, n * 4);
  strided_copy<<<n / 256, 256>>>(a, b, n, 1);
  strided_copy<<<n / 256, 256>>>(a, b, n, 32);
  bank_conflict<<<1024, 256>>>(b, 32);
  small_grid<<<1, 128>>>(a, 1 << 16);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
CU
nvcc -O2 -arch=sm_90 -o "$W/sample" "$W/sample.cu" 2>&1 | tail -3
t0=$(date +%s.%N)
timeout 240 ncu --set full -o "$W/sample" -f "$W/sample" > "$OUT/ncu-sample.log" 2>&1
t1=$(date +%s.%N)
ncu --import "$W/sample.ncu-rep" --page details --csv --print-details all > "$OUT/sample-details.csv" 2>&1
ncu --import "$W/sample.ncu-rep" --page details --print-details all --print-rule-details > "$OUT/sample-details.txt" 2>&1
ncu --import "$W/sample.ncu-rep" --page raw --csv --metrics launch__registers_per_thread,launch__grid_size,launch__block_size,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__occupancy_limit_blocks,launch__occupancy_limit_warps,launch__waves_per_multiprocessor,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic,gpu__time_duration.sum > "$OUT/sample-launch.csv" 2>&1
t2=$(date +%s.%N)
timeout 200 ncu --set full --launch-count 12 -o "$W/torch" -f python3 tests/apps/torch_ops.py > "$OUT/ncu-torch.log" 2>&1
t3=$(date +%s.%N)
ncu --import "$W/torch.ncu-rep" --page details --csv --print-details all > "$OUT/torch-details.csv" 2>&1
echo "sample ncu full: $(echo "$t1-$t0"|bc) s; torch 12 launches: $(echo "$t3-$t2"|bc) s" >> "$OUT/facts.txt"
wc -l "$OUT"/*

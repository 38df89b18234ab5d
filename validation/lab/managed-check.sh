#!/usr/bin/env bash
# tests/apps/managed_memory.cu (in-place kernels on managed and mapped pinned host memory) run
# plain, under roofline-cuda profile and under ncu's multi-pass kernel replay: do the replays
# leave the application's results right? validation/data/profile-managed-memory-h100.json.
# Usage (GPU machine, through the run tool): OUT=dir bash validation/lab/managed-check.sh
set -u
cd "$(dirname "$0")/../.."
source scripts/cuda-env.sh
OUT="${OUT:-out/managed-check}"; mkdir -p "$OUT"
B=build/gpu
(cmake -S . -B $B -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
   -DCMAKE_CUDA_COMPILER="$CUDA_HOME/bin/nvcc" >/dev/null &&
 cmake --build $B -j 16 --target roofline-cuda roofkit_inject roofkit_app_managed_memory \
   >"$OUT/build.log" 2>&1) || { tail -30 "$OUT/build.log"; exit 1; }
A=$B/tests/apps/roofkit_app_managed_memory
echo "plain: $($A 2>&1 | tail -1)"
$B/tools/roofline-cuda profile -o "$OUT/mm.json" -- $A >"$OUT/mm.out" 2>"$OUT/mm.err"
echo "profile rc=$?: $(tail -1 "$OUT/mm.out")"
ncu --metrics sm__sass_thread_inst_executed_op_fadd_pred_on.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,l1tex__t_bytes.sum \
  --cache-control all --csv --page raw $A >"$OUT/ncu.csv" 2>"$OUT/ncu.err"
echo "ncu (multi-pass) rc=$?: $(grep -h 'managed_memory:' "$OUT/ncu.csv" "$OUT/ncu.err" | head -1)"

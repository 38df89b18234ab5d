#!/usr/bin/env bash
# Runs validation/lab/overlap.cu (can the checkpoint's copies overlap the range profiler's starts and
# stops?) with 2 and 8 GiB of device memory, 20 profiled launches each. Results under
# $OUT/overlap.
# Usage: OUT=dir [BUILD=build/gpu] validation/lab/overlap.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-build/gpu}"
OUT="${OUT:-out}/overlap"
mkdir -p "$OUT"
source validation/lab/build-targets.sh roofkit
nvcc -std=c++20 -arch=sm_90 -Ilib/include -I"$BUILD/lib/include" validation/lab/overlap.cu \
  "$BUILD/lib/libroofkit.a" -lcupti -lnvperf_host -lcuda -L"$CUDA_HOME/lib" -lcheckpoint \
  -Xlinker -rpath -Xlinker "$CUDA_HOME/lib" -o "$BUILD/overlap" >"$OUT/nvcc.log" 2>&1 ||
  { tail -20 "$OUT/nvcc.log"; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$OUT/device.txt"
for mib in 2048 8192; do
  "$BUILD/overlap" $mib 20 >"$OUT/overlap-$mib.jsonl" 2>"$OUT/overlap-$mib.err"
  echo "overlap: $mib MiB rc=$?"
  cat "$OUT/overlap-$mib.jsonl" "$OUT/overlap-$mib.err"
done

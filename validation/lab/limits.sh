#!/usr/bin/env bash
# validation/lab/limits.cu alone, under ncu profiling nothing (a kernel filter that matches no
# kernel) and under roofline-cuda profile profiling nothing (the same): what each profiler's
# presence changes in the context. Results under $OUT/limits.
# Usage: OUT=dir [BUILD=build/gpu] validation/lab/limits.sh   (roofline-cuda built in BUILD)
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/cuda-env.sh
BUILD="${BUILD:-build/gpu}"
OUT="${OUT:-out}/limits"
mkdir -p "$OUT"
nvcc -O2 -arch=sm_90 -o "$OUT/limits" validation/lab/limits.cu || exit 1
"$OUT/limits" >"$OUT/alone.txt" 2>&1
echo "limits: alone rc=$?"
ncu --kernel-name regex:no_kernel_has_this_name "$OUT/limits" >"$OUT/under-ncu.txt" 2>&1
echo "limits: under ncu rc=$?"
if [ -x "$BUILD/tools/roofline-cuda" ]; then
  "$BUILD/tools/roofline-cuda" profile --kernel no_kernel_has_this_name -- "$OUT/limits" \
    >"$OUT/under-roofkit.txt" 2>"$OUT/under-roofkit.err"
  echo "limits: under roofline-cuda profile rc=$?"
fi
for f in alone under-ncu under-roofkit; do
  [ -f "$OUT/$f.txt" ] && grep -E "^(before|after)_launch" "$OUT/$f.txt" | sed "s/^/$f /"
done

#!/usr/bin/env bash
# tests/apps/thrust_ops.cu (Thrust/CUB sort, scan, transform and reduce) plain and under
# roofline-cuda profile: are the results right, is every launch profiled, and what does the
# run say about the kernels?
# Usage (GPU machine, through the run tool): OUT=dir bash validation/lab/thrust-check.sh
set -u
cd "$(dirname "$0")/../.."
OUT="${OUT:-out/thrust-check}"; mkdir -p "$OUT"
BUILD=build/gpu
source validation/lab/build-targets.sh roofline-cuda roofkit_inject roofkit_app_thrust_ops
A=$BUILD/tests/apps/roofkit_app_thrust_ops
$A >"$OUT/plain.out" 2>"$OUT/plain.err"
echo "plain rc=$?: $(tail -1 "$OUT/plain.out")"
$BUILD/tools/roofline-cuda profile -o "$OUT/thrust.json" -- $A >"$OUT/profile.out" 2>"$OUT/profile.err"
echo "profile rc=$?: $(tail -1 "$OUT/profile.out")"
grep -v "^|" "$OUT/profile.err" | grep . | head -20

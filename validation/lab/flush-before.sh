#!/usr/bin/env bash
# Does the work that precedes a kernel under roofkit's profiler (the flusher's read sweep and
# discard) change the kernel's DRAM writes under ncu? roofkit-suite plain under ncu's one-pass
# DRAM collection with a second flusher held (ROOFKIT_SUITE_HOLD_FLUSHER) and with that flusher
# also run before every kernel (ROOFKIT_SUITE_FLUSH_BEFORE), against roofkit-suite profile-each
# with the DRAM metrics alone, each twice, alternated; then the shared-memory configuration ncu
# reports for every launch (flush kernels included) in both plain variants.
# Results under $OUT/flush-before.
# Usage: OUT=dir [BUILD=build/gpu] validation/lab/flush-before.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
source validation/lab/suite-lab.sh flush-before
for run in 1 2; do
  ROOFKIT_SUITE_HOLD_FLUSHER=1 ncu_suite_dram ncu-held-$run
  ROOFKIT_SUITE_FLUSH_BEFORE=1 ncu_suite_dram ncu-flushed-$run
  ROOFKIT_SUITE_METRICS=$DRAM "$S" profile-each all "$OUT/ours-dram-$run.json" \
    2>"$OUT/ours-dram-$run.err"
  echo "flush-before: ours-dram-$run rc=$?"
done
for v in HOLD_FLUSHER FLUSH_BEFORE; do
  env ROOFKIT_SUITE_$v=1 timeout 150 ncu --cache-control all --clock-control none \
    --print-units base --csv --section LaunchStats "$S" plain >"$OUT/ncu-launch-$v.csv" \
    2>"$OUT/ncu-launch-$v.err"
  echo "flush-before: launch metrics $v rc=$?"
done

#!/usr/bin/env bash
# Does where the buffers land in device memory change a kernel's DRAM bytes? roofkit-suite
# (every bundled kernel once, after a primer of two L2 flushes) under ncu's one-pass DRAM
# collection and under roofkit's profiler (profile-each, cache control all), each with
# ROOFKIT_SUITE_PAD_MB = 0, 256 and 1024: an untouched allocation made first, which moves every
# later buffer. Results (CSV, JSON) under $OUT/placement.
# Usage: OUT=dir [BUILD=build/gpu] validation/lab/placement.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
source validation/lab/suite-lab.sh placement
for pad in ${PADS:-0 256 1024}; do
  ROOFKIT_SUITE_PAD_MB=$pad ncu_suite_dram ncu-pad$pad
  ROOFKIT_SUITE_PAD_MB=$pad "$S" profile-each all "$OUT/ours-pad$pad.json" 2>"$OUT/ours-pad$pad.err"
  echo "placement: roofkit pad $pad MiB rc=$?"
done

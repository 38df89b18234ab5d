#!/usr/bin/env bash
# Is the driver's flush all of ncu's cache control for the kernels whose DRAM writes stay apart
# (the tiled GEMMs, the register fold kernels, a tiny reduction)? The plain run of those kernels
# under ncu's one-pass DRAM collection with --cache-control all, and with --cache-control none
# while the application runs the driver's flush before each kernel (ROOFKIT_SUITE_DRIVER_FLUSH),
# against roofkit-suite profile-each with the DRAM metrics alone; each twice, alternated.
# Same values under ncu both ways: the flush is equivalent, and what differs is roofkit's process.
# Results under $OUT/ncu-driver-flush; the table: validation/lab/dram_compare_json.py.
# Usage: OUT=dir [BUILD=build/gpu] [REGEX=...] validation/lab/ncu-driver-flush.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
source validation/lab/suite-lab.sh ncu-driver-flush
REGEX="${REGEX:-global/coalesced|gemm/tiled|reduce/shared-tree|registers/}"
NCU=(ncu --clock-control none --profile-from-start off --print-units base --csv --metrics "$DRAM")
for run in 1 2; do
  timeout 150 "${NCU[@]}" --cache-control all "$S" plain "$REGEX" >"$OUT/ncu-all-$run.csv" \
    2>"$OUT/ncu-all-$run.err"
  echo "ncu-driver-flush: ncu all, run $run rc=$?"
  ROOFKIT_SUITE_DRIVER_FLUSH=1 timeout 150 "${NCU[@]}" --cache-control none "$S" plain "$REGEX" \
    >"$OUT/ncu-none-driver-$run.csv" 2>"$OUT/ncu-none-driver-$run.err"
  echo "ncu-driver-flush: ncu none + the driver's flush in the application, run $run rc=$?"
  ROOFKIT_SUITE_METRICS=$DRAM "$S" profile-each all "$OUT/ours-$run.json" "$REGEX" \
    2>"$OUT/ours-$run.err"
  echo "ncu-driver-flush: roofkit, run $run rc=$?"
done

#!/usr/bin/env bash
# Which cache control makes the difference between ncu's and roofkit's DRAM writes on
# validation/lab/inplace.cu? The application empties the L2 itself before every in-place launch
# (INPLACE_FLUSH=1: roofkit's read sweep and discard; 2: the read sweep alone), and ncu then
# profiles with --cache-control none, or all; roofkit profiles with and without it too. ncu also
# runs with application replay (no kernel replay machinery at all).
# Writes $OUT/summary/inplace-flush.json (validation/lab/inplace_json.py; every run against "roofkit").
# Usage (GPU machine, after a build of build/gpu): OUT=dir validation/lab/inplace-flush.sh [MiB...]
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/cuda-env.sh
OUT="${OUT:-out/inplace-flush}"; mkdir -p "$OUT/summary"
sizes=("${@:-24 64 256}")
read -r -a sizes <<<"${sizes[*]}"
source validation/lab/inplace-build.sh
ncu_run() { # label, INPLACE_FLUSH, cache control, more ncu options...
  local label=$1 flush=$2 cc=$3
  shift 3
  INPLACE_FLUSH=$flush ncu --cache-control "$cc" --clock-control none "$@" \
    --kernel-name regex:'primer_sum|inplace' --csv --page raw --print-units base \
    --metrics dram__bytes_read.sum,dram__bytes_write.sum "$OUT/inplace" "${sizes[@]}" \
    >"$OUT/$label.csv" 2>"$OUT/$label.err"
  echo "$label rc=$?"
}
roofkit_run() { # label, INPLACE_FLUSH, cache control
  INPLACE_FLUSH=$2 build/gpu/tools/roofline-cuda profile --cache-control "$3" \
    --kernel 'primer_sum|inplace' -o "$OUT/$1.json" -- "$OUT/inplace" "${sizes[@]}" \
    >"$OUT/$1.out" 2>"$OUT/$1.err"
  echo "$1 rc=$?: $(tail -1 "$OUT/$1.out")"
}
roofkit_run roofkit 0 all
roofkit_run roofkit-appflush 1 all
roofkit_run roofkit-none-appflush 1 none
ncu_run ncu-all 0 all
ncu_run ncu-all-appflush 1 all
ncu_run ncu-none-appflush-1 1 none
ncu_run ncu-none-appflush-2 1 none
ncu_run ncu-none-appclean 2 none
ncu_run ncu-all-appreplay 0 all --replay-mode application
python3 validation/lab/inplace_json.py "$OUT" "OUT=dir validation/lab/inplace-flush.sh ${sizes[*]}" \
  "${sizes[@]}" >"$OUT/summary/inplace-flush.json"
python3 -c "
import json
for s in json.load(open('$OUT/summary/inplace-flush.json'))['summary']:
    print(s['mib'], s['run'], s['minus_roofkit_write_mb'], s['within_1pct_or_64kib'])"

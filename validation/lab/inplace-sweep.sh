#!/usr/bin/env bash
# validation/lab/inplace.cu under ncu (--cache-control all, the DRAM metrics alone, one pass; run
# twice) and under roofline-cuda profile: DRAM writes of an in-place kernel per buffer size, from
# well inside the L2 to well past it. Writes $OUT/summary/inplace-sweep.json
# (validation/lab/inplace_json.py).
# Usage (GPU machine, after a build of build/gpu): OUT=dir validation/lab/inplace-sweep.sh [MiB...]
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/cuda-env.sh
OUT="${OUT:-out/inplace-sweep}"; mkdir -p "$OUT/summary"
sizes=("${@:-8 24 40 56 64 80 96 128 256}")
read -r -a sizes <<<"${sizes[*]}"
source validation/lab/inplace-build.sh
for run in 1 2; do
  ncu --cache-control all --clock-control none --kernel-name regex:'primer_sum|inplace' --csv \
    --page raw --print-units base --metrics dram__bytes_read.sum,dram__bytes_write.sum \
    "$OUT/inplace" "${sizes[@]}" >"$OUT/ncu-$run.csv" 2>"$OUT/ncu-$run.err"
  echo "ncu run $run rc=$?"
done
build/gpu/tools/roofline-cuda profile --kernel 'primer_sum|inplace' -o "$OUT/roofkit.json" \
  -- "$OUT/inplace" "${sizes[@]}" >"$OUT/roofkit.out" 2>"$OUT/roofkit.err"
echo "roofkit rc=$?: $(tail -1 "$OUT/roofkit.out")"
python3 validation/lab/inplace_json.py "$OUT" "OUT=dir validation/lab/inplace-sweep.sh ${sizes[*]}" \
  "${sizes[@]}" >"$OUT/summary/inplace-sweep.json"
python3 -c "
import json
for s in json.load(open('$OUT/summary/inplace-sweep.json'))['summary']: print(s)"

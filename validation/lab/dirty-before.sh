#!/usr/bin/env bash
# validation/lab/dirty_before.cu under ncu (--cache-control all, DRAM metrics alone) and under
# roofline-cuda profile, with 0, 16 and 40 MB of dirty L2 data left by the kernel before `probe`.
# Usage (GPU machine, after a build of build/gpu): OUT=dir validation/lab/dirty-before.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/cuda-env.sh
OUT="${OUT:-out/dirty-before}"; mkdir -p "$OUT"
nvcc -O2 -arch=sm_90 -o "$OUT/dirty_before" validation/lab/dirty_before.cu || exit 1
for mb in 0 16 40 0 16 40; do
  ncu --cache-control all --clock-control none --kernel-name probe --csv --print-units base \
    --metrics dram__bytes_read.sum,dram__bytes_write.sum "$OUT/dirty_before" $mb 2>/dev/null |
    grep -E '^"[0-9]' | awk -F'","' -v mb=$mb '{gsub(/"/, "", $NF); print "ncu dirty_mb=" mb, $(NF-2), $NF}'
  build/gpu/tools/roofline-cuda profile --kernel probe -o "$OUT/p$mb.json" -- "$OUT/dirty_before" $mb >/dev/null 2>&1
  python3 -c "
import json; d=json.load(open('$OUT/p$mb.json'))
for l in d['profile']['launches']:
    c=l['counters']; print('roofkit dirty_mb=$mb', 'read', int(c['dram__bytes_read.sum']), 'write', int(c['dram__bytes_write.sum']))"
done

#!/usr/bin/env bash
# Where Nsight Compute's extra DRAM writes come from: a kernel that writes 16 KiB
# (tests/apps/many_kernels.cu, 5 launches), alone and beside 1 GiB of device memory it never
# touches, under ncu's kernel replay and application replay, cache control all and none, and
# under `roofline-cuda profile`. Prints one CSV line per launch.
# Usage (GPU machine, after a build): validation/scripts/ncu-replay-writes.sh BUILD_DIR  > result.csv
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD="${1:-build/gpu}"
APP="$BUILD/tests/apps/roofkit_app_many_kernels"
M=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_write.sum
echo "tool,replay,cache,untouched_mib,launch,dram_read,dram_write,l2_write_sectors"
for mib in 0 1024; do
for replay in kernel application; do
  for cache in all none; do
    ncu --replay-mode "$replay" --cache-control "$cache" --clock-control none --csv \
      --print-units base --launch-count 5 --metrics "$M" "$APP" 5 $mib 2>/dev/null |
      python3 -c "
import csv, sys
rows = [r for r in csv.reader(sys.stdin) if len(r) > 10]
h = rows[0]; idx = {n: h.index(n) for n in h}
vals = {}
for r in rows[1:]:
    if not r[idx['ID']].isdigit(): continue
    vals.setdefault(r[idx['ID']], {})[r[idx['Metric Name']]] = r[idx['Metric Value']].replace(',', '')
for i, v in sorted(vals.items(), key=lambda x: int(x[0])):
    print('ncu,$replay,$cache,$mib,%s,%s,%s,%s' % (i, v.get('dram__bytes_read.sum'), v.get('dram__bytes_write.sum'), v.get('lts__t_sectors_op_write.sum')))
"
  done
done
for cache in all none; do
  d="$(mktemp -d)"
  "$BUILD/tools/roofline-cuda" profile --sample all --cache-control "$cache" --launch-count 5 \
    --records "$d/r.jsonl" -o "$d/run.json" -- "$APP" 5 $mib >/dev/null 2>"$d/err"
  python3 -c "
import json
i = 0
for line in open('$d/r.jsonl'):
    j = json.loads(line)
    if j.get('type') != 'launch': continue
    c = j['counters']
    print('roofkit,user,$cache,$mib,%d,%s,%s,%s' % (i, c.get('dram__bytes_read.sum'), c.get('dram__bytes_write.sum'), c.get('lts__t_sectors_op_write.sum')))
    i += 1
" || head -5 "$d/err"
done
done

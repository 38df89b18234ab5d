#!/usr/bin/env bash
# validation/lab/leftover.cu under ncu --cache-control all (twice) and none, and under
# roofline-cuda profile (cache control all): the DRAM writes counted for `probe`, which writes
# almost nothing itself, after `fill` left 0 to 40 MB of dirty data in the L2. Writes
# $OUT/summary/leftover.json.
# Usage (GPU machine, after a build of build/gpu): OUT=dir validation/lab/leftover.sh [MB...]
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/cuda-env.sh
OUT="${OUT:-out/leftover}"; mkdir -p "$OUT/summary"
sizes=("${@:-0 4 8 16 24 40}")
read -r -a sizes <<<"${sizes[*]}"
nvcc -O2 -arch=sm_90 -o "$OUT/leftover" validation/lab/leftover.cu || exit 1
for run in all-1 all-2 none; do
  ncu --cache-control "${run%-*}" --clock-control none --kernel-name probe --csv --page raw \
    --print-units base --metrics dram__bytes_read.sum,dram__bytes_write.sum \
    "$OUT/leftover" "${sizes[@]}" >"$OUT/ncu-$run.csv" 2>"$OUT/ncu-$run.err"
  echo "ncu $run rc=$?"
done
build/gpu/tools/roofline-cuda profile --kernel probe -o "$OUT/roofkit.json" -- \
  "$OUT/leftover" "${sizes[@]}" >"$OUT/roofkit.out" 2>"$OUT/roofkit.err"
echo "roofkit rc=$?: $(tail -1 "$OUT/roofkit.out")"
python3 - "$OUT" "${sizes[@]}" >"$OUT/summary/leftover.json" <<'PY'
import json, os, sys
sys.path.insert(0, "scripts")
from ncu_csv import num, rows
out, sizes = sys.argv[1], sys.argv[2:]
def ncu(path):
    return [num(d["dram__bytes_write.sum"]) for d in rows(path)]
runs = {f"ncu_{k}": ncu(os.path.join(out, f"ncu-{k}.csv")) for k in ("all-1", "all-2", "none")}
rk = json.load(open(os.path.join(out, "roofkit.json")))
runs["roofkit_all"] = [l["counters"]["dram__bytes_write.sum"] for l in rk["profile"]["launches"]]
ctx = rk["context"]
rows = []
for i, mb in enumerate(s for s in sizes for _ in (0, 1)):
    rows.append({"dirty_mb_before": float(mb), "launch": i % 2 + 1,
                 **{k: (round(v[i] / 1e6, 3) if i < len(v) else None) for k, v in runs.items()}})
print(json.dumps({"schema": "roofkit.validation/1",
                  "what": "DRAM writes counted for a kernel that reads 256 MB and writes 64 KB, after a "
                          "kernel that left the given MB of dirty data in the L2: what each "
                          "profiler's cache control leaves dirty (MB)",
                  "command": "OUT=dir validation/lab/leftover.sh " + " ".join(sizes),
                  "device": ctx.get("device"), "git_revision": ctx.get("git_revision"),
                  "date": ctx.get("date"), "probe_write_mb": rows}, indent=1))
PY
python3 -c "
import json
for r in json.load(open('$OUT/summary/leftover.json'))['probe_write_mb']: print(r)"

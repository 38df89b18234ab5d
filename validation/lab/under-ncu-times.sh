#!/usr/bin/env bash
# Which bundled kernels does Nsight Compute's mere presence slow down? roofline-cuda bench
# --no-counters (event timing only, cold, the median of 20) over every bundled kernel, alone and
# under ncu with a kernel filter that matches nothing (RUNS_ALONE=2 adds a second run alone, for
# the spread); then each kernel's median under ncu against its slower run alone. Results under
# $OUT/under-ncu-times.
# Usage: OUT=dir [BUILD=build/gpu] validation/lab/under-ncu-times.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-build/gpu}"
OUT="${OUT:-out}/under-ncu-times"
mkdir -p "$OUT"
source validation/lab/build-targets.sh roofline-cuda
RC="$BUILD/tools/roofline-cuda"
B=(bench -q --no-ceilings --no-counters)
"$RC" "${B[@]}" -o "$OUT/alone-1.json" >/dev/null 2>"$OUT/alone-1.err"
echo "under-ncu-times: alone rc=$?"
ncu --kernel-name regex:no_kernel_has_this_name "$RC" "${B[@]}" -o "$OUT/under-ncu.json" \
  >"$OUT/under-ncu.log" 2>&1
echo "under-ncu-times: under ncu (nothing profiled) rc=$?"
if [ "${RUNS_ALONE:-1}" -ge 2 ]; then
  "$RC" "${B[@]}" -o "$OUT/alone-2.json" >/dev/null 2>"$OUT/alone-2.err"
  echo "under-ncu-times: alone again rc=$?"
else
  cp "$OUT/alone-1.json" "$OUT/alone-2.json"
fi
python3 - "$OUT" <<'PY'
import json, sys
d = sys.argv[1]
med = lambda f: {k["name"]: k["time_s"]["median"] for k in json.load(open(f"{d}/{f}.json"))["kernels"]
                 if k.get("time_s")}
a1, a2, n = med("alone-1"), med("alone-2"), med("under-ncu")
rows = []
for name, t in n.items():
    if name in a1 and name in a2:
        lo, hi = min(a1[name], a2[name]), max(a1[name], a2[name])
        rows.append({"kernel": name, "alone_us": [a1[name] * 1e6, a2[name] * 1e6],
                     "under_ncu_us": t * 1e6, "vs_slower_alone_pct": 100 * (t / hi - 1),
                     "alone_spread_pct": 100 * (hi / lo - 1)})
rows.sort(key=lambda r: -r["vs_slower_alone_pct"])
json.dump({"rows": rows}, open(f"{d}/summary.json", "w"), indent=1)
for r in rows[:15]:
    print(f"{r['kernel']:32} alone {r['alone_us'][0]:10.2f} {r['alone_us'][1]:10.2f}  under ncu "
          f"{r['under_ncu_us']:10.2f}  {r['vs_slower_alone_pct']:+6.2f}%  (alone spread {r['alone_spread_pct']:.2f}%)")
print("slower by more than 1% and more than the spread alone:",
      sum(r["vs_slower_alone_pct"] > max(1, r["alone_spread_pct"]) for r in rows), "of", len(rows))
PY

#!/usr/bin/env bash
# Does Nsight Compute's presence change how fast registers/spill runs? Under ncu its
# gpu__time_duration is 2.6% longer than under roofkit's profiler, with 4% fewer L2 cycles and 2%
# fewer DRAM writes. Event-timed by roofline-cuda bench (cold, the median of 20) with no profiler
# in the process, with roofkit's counters, and under ncu with nothing profiled (its injection
# loaded, a kernel filter that matches nothing); then ncu profiling the kernel in the same bench
# process. The fold kernel registers/31-regs beside it. Results under $OUT/spill-time.
# Usage: OUT=dir [BUILD=build/gpu] validation/lab/spill-time.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-build/gpu}"
OUT="${OUT:-out}/spill-time"
mkdir -p "$OUT"
source validation/lab/build-targets.sh roofline-cuda
RC="$BUILD/tools/roofline-cuda"
K='^registers/(spill|31-regs)$'
B=(bench -q --no-ceilings --kernel "$K")
NCU=(ncu --cache-control all --clock-control none --print-units base --csv)
for run in 1 2; do
  "$RC" "${B[@]}" --no-counters -o "$OUT/alone-$run.json" >/dev/null 2>"$OUT/alone-$run.err"
  echo "spill-time: no profiler, run $run rc=$?"
  "$RC" "${B[@]}" -o "$OUT/roofkit-$run.json" >/dev/null 2>"$OUT/roofkit-$run.err"
  echo "spill-time: roofkit's counters, run $run rc=$?"
  "${NCU[@]}" --kernel-name regex:no_kernel_has_this_name "$RC" "${B[@]}" --no-counters \
    -o "$OUT/under-ncu-$run.json" >"$OUT/under-ncu-$run.log" 2>&1
  echo "spill-time: under ncu, nothing profiled, run $run rc=$?"
done
"${NCU[@]}" --metrics gpu__time_duration.sum,lts__lts2xbar_cycles_active.sum,dram__bytes_write.sum \
  --kernel-name regex:'k26_cap24|k2[24]_free' "$RC" "${B[@]}" --no-counters --reps 3 --warmup 0 \
  -o "$OUT/ncu-profiled.json" >"$OUT/ncu-profiled.csv" 2>"$OUT/ncu-profiled.err"
echo "spill-time: ncu profiling them in the bench process rc=$?"
python3 - "$OUT" <<'PY'
import glob, json, os, sys
d = sys.argv[1]
for f in sorted(glob.glob(f"{d}/*.json")):
    try:
        r = json.load(open(f))
    except Exception as e:
        print(os.path.basename(f), "unreadable", e); continue
    for k in r.get("kernels", []):
        t = k.get("time_s", {})
        print(f"{os.path.basename(f):22} {k['name']:20} median {t.get('median', 0) * 1e6:9.2f} us"
              f"  min {t.get('min', 0) * 1e6:9.2f}  gpu {((k.get('gpu_time_s') or 0) * 1e6):9.2f}"
              f"  L2 cycles {k.get('counters', {}).get('lts__lts2xbar_cycles_active.sum', 0):12.0f}")
PY
grep -v "^==" "$OUT/ncu-profiled.csv" | grep -i "cap24\|_free\|Metric Name" | cut -c1-400 | head -20

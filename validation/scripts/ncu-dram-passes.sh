#!/usr/bin/env bash
# Where Nsight Compute's extra DRAM writes come from, and what the profiler's passes cost.
#  1. Every bundled kernel's DRAM read and write bytes under roofkit's profiler (cache control
#     all, with the L2 invalidated after the flush and without: "all-evict"), and under
#     `ncu --cache-control all` (its default kernel replay) collecting the two DRAM metrics
#     alone (one pass: no save and restore of device memory) and with one SASS-patched metric
#     beside them (two passes: ncu restores memory before the second).
#  2. roofkit-profiler-cost: the range profiler's time per pass by metric kind and replay mode.
# Raw outputs go to $OUT (dram-passes-raw.tgz, profiler-cost.jsonl); validation/scripts/ncu_dram_passes.py
# turns them into the validation files. Usage: validation/scripts/ncu-dram-passes.sh [BUILD_DIR]
set -uo pipefail
ulimit -c 0
cd "$(dirname "$0")/../.."
source scripts/cuda-env.sh
BUILD="${1:-build/gpu}"
OUT="${OUT:-out/dram-passes}"
mkdir -p "$OUT"
LOG="$(mktemp -d)"
export ROOFKIT_SEED="${ROOFKIT_SEED:-20261124}"
NCU="$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | tail -1)"
S="$BUILD/validation/programs/roofkit-suite"
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
step() { echo "dram-passes: $*" | tee -a "$LOG/steps.log"; }

step "device: $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader)"
step "ncu: $("$NCU" --version | tail -1)"
{
  t=$(now)
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DCMAKE_CUDA_COMPILER="$CUDA_HOME/bin/nvcc" >"$LOG/configure.log" 2>&1 &&
    cmake --build "$BUILD" -j "$(nproc)" --target roofkit-suite roofkit-profiler-cost \
      >"$LOG/build.log" 2>&1
  rc=$?
  step "build rc=$rc in $(since "$t") s"
  if [ $rc -ne 0 ]; then grep -B2 -A20 -m3 error "$LOG/build.log"; exit 1; fi
}

for mode in all all-evict; do
  t=$(now)
  "$S" profile "$mode" "$LOG/ours-$mode.json" 2>"$LOG/ours-$mode.log"
  step "roofkit $mode rc=$? in $(since "$t") s"
done
t=$(now)
"$S" profile-each all "$LOG/ours-each.json" 2>"$LOG/ours-each.log"
step "roofkit profile-each all rc=$? in $(since "$t") s"
dram=dram__bytes_read.sum,dram__bytes_write.sum
sass=smsp__sass_thread_inst_executed_op_ffma_pred_on.sum
ncu_run() { # name, metrics
  local t
  t=$(now)
  timeout 240 "$NCU" --cache-control all --clock-control none --profile-from-start off \
    --print-units base --csv --metrics "$2" "$S" plain >"$LOG/ncu-$1.csv" 2>"$LOG/ncu-$1.err"
  step "ncu $1 ($2) rc=$? in $(since "$t") s"
}
ncu_run dram-1pass "$dram"
ncu_run dram-1pass-again "$dram"
ncu_run dram-2pass "$dram,$sass"

t=$(now)
"$BUILD/validation/programs/roofkit-profiler-cost" 10 >"$OUT/profiler-cost.jsonl" 2>"$LOG/profiler-cost.err"
step "profiler cost rc=$? in $(since "$t") s"
tail -3 "$LOG/profiler-cost.err"
python3 - "$OUT/profiler-cost.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    if "error" in d:
        print(d); continue
    s = d["stats_total"]; f = d["stats_after_first"]
    n = s["passes"] - f["passes"]
    start = (s["start_s"] - f["start_s"]) / max(n, 1)
    print(f"{d['set']:9s} {d['mode']:26s} passes/range {d['passes']} first {d['first_call_s']:.3f} s "
          f"wall/launch {d['wall_per_launch_s']*1e3:8.2f} ms  start/pass {start*1e3:7.2f} ms  "
          f"by pass {[round(x*1e3, 1) for x in s['start_s_by_pass']]}")
PY
tar czf "$OUT/dram-passes-raw.tgz" -C "$LOG" .

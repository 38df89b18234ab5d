#!/usr/bin/env bash
# What CUPTI's checkpoint of device memory costs a profiled launch of roofline-cuda profile, by
# how much memory the application holds: tests/apps/big_memory.cu holding 0.7% to 20% of the free
# device memory (0.5 to 16 GB), its in-place kernel's two launches profiled; the save, the
# restores before passes 1-3 and the final restore, per launch, from the profiler's time
# breakdown. Results under $OUT/checkpoint-cost.
# Usage: OUT=dir [BUILD=build/gpu] scripts/lab/checkpoint-cost.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-build/gpu}"
OUT="${OUT:-out}/checkpoint-cost"
mkdir -p "$OUT"
source scripts/lab/build-targets.sh roofline-cuda roofkit_inject roofkit_app_big_memory
APP="$(find "$BUILD" -name roofkit_app_big_memory -type f | head -1)"
for f in 0.007 0.02 0.05 0.1 0.2; do
  "$BUILD/tools/roofline-cuda" profile --kernel add_one_in_place --records "$OUT/records-$f.jsonl" \
    -o "$OUT/run-$f.json" -- "$APP" $f >"$OUT/out-$f.txt" 2>&1
  echo "checkpoint-cost: fraction $f rc=$? $(grep -o 'big_memory: [^|]*held' "$OUT/out-$f.txt")"
  grep '"profiler_time"' "$OUT/records-$f.jsonl" | python3 -c '
import json, sys
t = json.loads(sys.stdin.read())
n = t["calls"] - 1  # the session warm-up call profiles no launch
print("  per launch (ms): save %.2f, restores before passes %.2f, final restore %.2f, free %.2f" % tuple(
    t[k] * 1e3 / n for k in ("checkpoint_save_s", "before_s", "checkpoint_restore_s", "checkpoint_free_s")))'
done

#!/usr/bin/env bash
# Experiment: what a profiled launch of `roofline-cuda profile` spends outside the replay
# passes (synchronisation, checkpoint save, final restore, free), with one checkpoint per
# launch and with one kept for the whole run (ROOFKIT_PROFILE_KEEP_CHECKPOINT=1), on every
# launch of tests/apps/torch_ops.py; then the profile_app GPU tests under both.
# Usage (GPU machine, after a build of build/gpu): OUT=dir scripts/lab/checkpoint-keep.sh
set -uo pipefail
ulimit -c 0
cd "$(dirname "$0")/../.."
OUT="${OUT:-out/checkpoint-keep}"
mkdir -p "$OUT"
RC=build/gpu/tools/roofline-cuda
python3 tests/apps/torch_ops.py >/dev/null 2>&1 # warm the caches
for keep in 0 1; do
  a=$(date +%s.%N)
  ROOFKIT_PROFILE_KEEP_CHECKPOINT=$keep "$RC" profile --records "$OUT/keep$keep.jsonl" \
    -o "$OUT/keep$keep.json" -- python3 tests/apps/torch_ops.py >"$OUT/keep$keep.out" 2>/dev/null
  rc=$?
  b=$(date +%s.%N)
  echo "keep=$keep rc=$rc wall $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", b - a }') s: $(tail -1 "$OUT/keep$keep.out")"
  grep '"profiler_time"' "$OUT/keep$keep.jsonl"
  ROOFKIT_PROFILE_KEEP_CHECKPOINT=$keep ctest --test-dir build/gpu -L gpu -R profile_app 2>&1 |
    grep -E "tests passed|tests failed"
done

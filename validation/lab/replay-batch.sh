#!/usr/bin/env bash
# Launches replayed together (`profile --replay-batch N`) against each launch replayed alone
# (`--replay-batch 1`), in turn on one machine: every launch of the PyTorch script
# (tests/apps/torch_ops.py) ROUNDS times (default 2) with its wall time, the script's output
# (its results must not change), the profiler's time breakdown and what ended the batches; then
# the launch-by-launch values of the two (tests/apps/torch_ops.py and many_kernels) compared with
# validation/lab/replay_batch_json.py. Optionally runs the profile_app and profiler GPU tests first
# (TESTS=1). Results under $OUT/replay-batch (replay-batch.json).
# Usage (GPU machine): OUT=dir [ROUNDS=n] [TESTS=1] validation/lab/replay-batch.sh
set -uo pipefail
ulimit -c 0
cd "$(dirname "$0")/../.."
OUT="$(mkdir -p "${OUT:-out}/replay-batch" && cd "${OUT:-out}/replay-batch" && pwd)"
BUILD="${BUILD:-build/gpu}"
source validation/lab/build-targets.sh roofline-cuda roofkit_inject roofkit_app_many_kernels \
  test_profile_app test_profiler_counts
if [ "${TESTS:-0}" = 1 ]; then
  timeout 420 ctest --test-dir "$BUILD" -L gpu -R 'profile_app|profiler_counts' \
    --output-on-failure --output-junit "$OUT/gpu-tests.xml" >"$OUT/gpu-tests.log" 2>&1
  echo "replay-batch: gpu tests rc=$? $(grep -E 'tests passed|tests failed' "$OUT/gpu-tests.log")"
  grep -B2 -A25 -E 'Failure|\*\*\*Failed|Timeout' "$OUT/gpu-tests.log" | head -120
fi
RC="$BUILD/tools/roofline-cuda"
TORCH=(python3 tests/apps/torch_ops.py)
"${TORCH[@]}" >/dev/null 2>&1 # file cache and JIT cache warm for every run below
run() { # name, profile options (one word each, comma-separated), command...
  local name=$1 opts
  IFS=, read -r -a opts <<<"$2"
  shift 2
  local a
  a=$(date +%s.%N)
  timeout "${RUN_LIMIT_S:-150}" "$RC" profile "${opts[@]}" --records "$OUT/$name.jsonl" -o "$OUT/$name.json" -- "$@" \
    >"$OUT/$name.out" 2>"$OUT/$name.err"
  echo "rc=$?" >>"$OUT/$name.err"
  awk -v a="$a" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }' >"$OUT/$name.s"
  echo "replay-batch: $name $(cat "$OUT/$name.s") s $(tail -1 "$OUT/$name.err") |" \
    "$(grep -o 'bf16 rel err.*' "$OUT/$name.out" | head -1)"
}
for r in $(seq 1 "${ROUNDS:-2}"); do
  a=$(date +%s.%N)
  "${TORCH[@]}" >"$OUT/plain_$r.out" 2>&1
  awk -v a="$a" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }' >"$OUT/plain_$r.s"
  run "alone_$r" --replay-batch,1 "${TORCH[@]}"
  run "batch_$r" --replay-batch,32 "${TORCH[@]}"
done
MANY=("$BUILD/tests/apps/roofkit_app_many_kernels" 10000)
run many_alone --replay-batch,1,--launch-count,100 "${MANY[@]}"
run many_batch --replay-batch,32,--launch-count,100 "${MANY[@]}"
run many_batch_1000 --replay-batch,32,--launch-count,1000 "${MANY[@]}"
grep -h "roofkit" "$OUT"/batch_1.err | head -20
python3 validation/lab/replay_batch_json.py "$OUT" "${ROUNDS:-2}" >"$OUT/replay-batch.json"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(json.dumps(d['summary'], indent=1))" \
  "$OUT/replay-batch.json"

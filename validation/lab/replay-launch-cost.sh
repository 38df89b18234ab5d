#!/usr/bin/env bash
# Lab (issue 39): where the time of a profiled launch goes with every launch profiled, on one
# step of the training step (--sample all --profile-from-start off), by ROOFKIT_REPLAY_PHASES=1
# (the launch calls and the waits for them split out of the pass body): the defaults, without
# cache control, with the sweep instead of the driver's flush, with 128 launches a batch, and the
# defaults once more with syscall_time.so preloaded (every ioctl by RM control command).
# Usage: OUT=dir [BUILD=build/gpu] validation/lab/replay-launch-cost.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-build/gpu}"
OUT="${OUT:-out}/replay-launch-cost"
mkdir -p "$OUT"
source validation/lab/build-targets.sh roofline-cuda roofkit_inject
gcc -O2 -shared -fPIC -o "$BUILD/syscall_time.so" validation/lab/syscall_time.c -ldl -lpthread ||
  exit 1
R="$BUILD/tools/roofline-cuda"
APP=(python3 validation/apps/train_step.py --steps 1)
ALL=(profile -q --sample all --profile-from-start off)
run() { # label, command...
  local label=$1
  shift
  local a b
  a=$(date +%s%N)
  "$@" >"$OUT/$label.out" 2>"$OUT/$label.err"
  local rc=$?
  b=$(date +%s%N)
  echo "$label rc=$rc wall_ms=$(((b - a) / 1000000))"
  grep -E "roofkit-inject:|profiled \(" "$OUT/$label.err" | grep -v "batches ended" | sed 's/^/   /'
}
"${APP[@]}" >/dev/null 2>&1 # cold start
run alone "${APP[@]}"
run alone2 "${APP[@]}"
run warm_roofs "$R" profile -q -o "$OUT/warm.json" -- "${APP[@]}"
export ROOFKIT_REPLAY_PHASES=1
run all "$R" "${ALL[@]}" -o "$OUT/all.json" -- "${APP[@]}"
run all_nocache "$R" "${ALL[@]}" --cache-control none -o "$OUT/nocache.json" -- "${APP[@]}"
ROOFKIT_DRIVER_FLUSH=off run all_sweep "$R" "${ALL[@]}" -o "$OUT/sweep.json" -- "${APP[@]}"
run all_b128 "$R" "${ALL[@]}" --replay-batch 128 -o "$OUT/b128.json" -- "${APP[@]}"
SYSCALL_TIME_OUT="$OUT/syscalls-all.jsonl" LD_PRELOAD="$PWD/$BUILD/syscall_time.so" \
  run all_preload "$R" "${ALL[@]}" -o "$OUT/preload.json" -- "${APP[@]}"
python3 - "$OUT/syscalls-all.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    calls = sorted(d["calls"], key=lambda c: -c["s"])[:12]
    print("pid", d["pid"], "top calls by time:")
    for c in calls:
        print(f'   {c["call"]:<24} {c["key"]:#x} n={c["count"]} {c["s"]:.3f} s')
PY

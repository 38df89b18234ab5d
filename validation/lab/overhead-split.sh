#!/usr/bin/env bash
# Lab (issue 39): where the profiler's overhead per launch goes with every launch profiled, on
# STEPS steps of the training step (default 3): the application alone, then `profile --sample all
# --profile-from-start off` with ROOFKIT_REPLAY_PHASES=1, timed from the tool's start to its end;
# the injection's start and exit (epoch ns, from its stderr) split that into the tool before the
# application's CUDA start, the application with the injection, and the tool after the
# application's exit (reading the records, building and writing the run). Writes
# $OUT/overhead-split.json. Usage: OUT=dir REV=rev [STEPS=3] validation/lab/overhead-split.sh BUILD
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD="${1:-build/gpu}"
OUT="$(mkdir -p "${OUT:-out/overhead-split}" && cd "${OUT:-out/overhead-split}" && pwd)"
STEPS="${STEPS:-3}"
TS=validation/apps/train_step.py
W="$(mktemp -d)"
# Untimed: the first Python process of a fresh machine reads PyTorch from disk (15 s against 9 s
# for the next on the H200), which would make either timed run slower than the other.
python3 "$TS" --steps 1 >/dev/null 2>&1
{
  a=$(date +%s%N); python3 "$TS" --steps "$STEPS" >/dev/null 2>&1; b=$(date +%s%N)
  echo "alone steps=$STEPS start_ns=$a end_ns=$b"
  a=$(date +%s%N)
  ROOFKIT_REPLAY_PHASES=1 "$BUILD/tools/roofline-cuda" profile -q --sample all \
    --profile-from-start off -o "$W/run.json" -- python3 "$TS" --steps "$STEPS" >/dev/null \
    2>"$W/profile.err"
  rc=$?; b=$(date +%s%N)
  echo "profiled steps=$STEPS rc=$rc start_ns=$a end_ns=$b json_bytes=$(stat -c %s "$W/run.json")"
  cat "$W/profile.err"
} >"$W/log.txt" 2>&1
python3 validation/lab/overhead_split_json.py "$W/log.txt" "${REV:-unknown}" \
  "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)" \
  >"$OUT/overhead-split.json"

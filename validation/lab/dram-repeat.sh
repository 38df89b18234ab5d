#!/usr/bin/env bash
# Are the launches whose DRAM bytes miss ncu's one-pass values the same from run to run? One
# training step with every launch profiled (profile --sample all), three times, and ncu with the
# two DRAM metrics alone (one pass), twice: each of our runs against ncu's first, our runs
# against each other and ncu's second against its first, launch by launch, with the launches
# that miss and the launch before each (what the L2 held before the flush).
# PROFILE_ARGS: more options for our runs (e.g. "--replay-batch 256"), named in the evidence.
# Writes $OUT/dram-repeat.json and $OUT/work.tgz. Usage: REV=rev [OUT=dir] validation/lab/dram-repeat.sh BUILD
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
BUILD="${1:?usage: REV=rev validation/lab/dram-repeat.sh BUILD}"
OUT="$(mkdir -p "${OUT:-out/dram-repeat}" && cd "${OUT:-out/dram-repeat}" && pwd)"
W="$(mktemp -d)"
one=(python3 validation/apps/train_step.py --steps 1)
rc=0
for i in 1 2 3; do
  # shellcheck disable=SC2086
  "$BUILD/tools/roofline-cuda" profile -q --sample all --profile-from-start off ${PROFILE_ARGS:-} \
    -o "$W/ours$i.json" -- "${one[@]}" >"$W/ours$i.out" 2>"$W/ours$i.err" || rc=1
done
for i in 1 2; do
  ncu --profile-from-start off --cache-control all --clock-control none --csv --page raw \
    --print-units base --metrics dram__bytes_read.sum,dram__bytes_write.sum "${one[@]}" \
    >"$W/ncu$i.csv" 2>"$W/ncu$i.err" || rc=1
done
tar czf "$OUT/work.tgz" -C "$W" .
[ $rc -eq 0 ] || { echo "dram-repeat: a run failed (logs in $W)" >&2; exit 1; }
python3 validation/lab/dram_repeat_json.py "$W" "${REV:-unknown}" >"$OUT/dram-repeat.json" ||
  exit 1
cat "$OUT/dram-repeat.json"

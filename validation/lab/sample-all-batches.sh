#!/usr/bin/env bash
# Every launch profiled (issue 39) at several replay batch sizes, in turn on one machine: an
# application (APP, default five steps of the GPT loop) alone twice, then ROUNDS times (default 1)
# under `profile --sample all --replay-batch N` for each N of BATCHES (default
# "128 256 512 1024") in turn, with ROOFKIT_REPLAY_PHASES=1 and a record log, then once with the
# defaults; the record logs compared launch by launch with the first N's first round's
# (validation/lab/records_diff.py: SASS counts equal, DRAM within 1% or 64 KiB). PROFILE_OPTS are
# added to every profile command. Optionally runs the profile_app and profiler_counts GPU tests
# first (TESTS=1). Writes $OUT/batches.json.
# Usage (GPU machine): OUT=dir [APP="..."] [BATCHES="..."] [ROUNDS=n] [PROFILE_OPTS="..."]
#   [TESTS=1] validation/lab/sample-all-batches.sh
set -uo pipefail
ulimit -c 0
cd "$(dirname "$0")/../.." || exit 2
OUT="$(mkdir -p "${OUT:-out}" && cd "${OUT:-out}" && pwd)"
BUILD="${BUILD:-build/gpu}"
BATCHES="${BATCHES:-128 256 512 1024}"
ROUNDS="${ROUNDS:-1}"
read -r -a app <<<"${APP:-python3 validation/apps/gpt_train.py --steps 5}"
read -r -a popts <<<"${PROFILE_OPTS:-}"
W=/tmp/batches; mkdir -p $W
export XDG_CACHE_HOME=$W/cache
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader \
  | tee $W/device.txt
source validation/lab/build-targets.sh roofline-cuda roofkit_inject roofkit_gpu_tests
if [ "${TESTS:-0}" = 1 ]; then
  timeout 300 ctest --test-dir "$BUILD" -L gpu -R 'profile_app|profiler_counts' \
    --output-on-failure --output-junit "$OUT/gpu-tests.xml" >"$OUT/gpu-tests.log" 2>&1
  echo "gpu tests rc=$? $(grep -E 'tests passed|tests failed' "$OUT/gpu-tests.log")"
  grep -B2 -A25 -E 'Failure|\*\*\*Failed|Timeout' "$OUT/gpu-tests.log" | head -80
fi
source validation/lab/timed.sh
timed alone1 "${app[@]}"
timed alone2 "${app[@]}"
for r in $(seq 1 "$ROUNDS"); do
  for n in $BATCHES; do
    timed b${n}_$r env ROOFKIT_REPLAY_PHASES=1 timeout 200 "$BUILD/tools/roofline-cuda" profile \
      -q "${popts[@]}" --sample all --replay-batch $n --records $W/b${n}_$r.records.jsonl \
      -o $W/b${n}_$r.json -- "${app[@]}"
  done
done
timed defaults env ROOFKIT_REPLAY_PHASES=1 timeout 200 "$BUILD/tools/roofline-cuda" profile -q \
  "${popts[@]}" -o $W/defaults.json -- "${app[@]}"
python3 - $W "$BATCHES" "$ROUNDS" "${app[*]}" <<'PY' | tee $OUT/batches.json
import json, re, subprocess, sys
sys.path.insert(0, "validation/lab")
from replay_phases import phases, records_diff
w, batches, rounds = sys.argv[1], sys.argv[2].split(), int(sys.argv[3])
wall = lambda n: float(open(f"{w}/{n}.wall").read())
out = {"device": open(w + "/device.txt").read().strip(), "application": sys.argv[4],
       "alone_wall_s": [wall("alone1"), wall("alone2")], "runs": {}}
runs = [f"b{b}_{r}" for r in range(1, rounds + 1) for b in batches]
for n in runs + ["defaults"]:
    try:
        p = json.load(open(f"{w}/{n}.json"))["profile"]
        r = {k: p.get(k) for k in ("total_launches", "profiled_launches", "inferred_launches",
                                   "profile_overhead_s", "profile_overhead_per_launch_s")}
        r["wall_s"] = wall(n)
        r["ms_per_profiled_launch"] = phases(f"{w}/{n}.err")
        out["runs"][n] = r
    except Exception as e:
        out["runs"][n] = {"error": str(e), "stderr_tail": open(f"{w}/{n}.err").read()[-1500:]}
for other in runs[1:]:
    out[f"diff_{runs[0]}_{other}"] = records_diff(
        f"{w}/{runs[0]}.records.jsonl", f"{w}/{other}.records.jsonl",
        ("matched", "sass_counts_unequal", "dram_outside_1pct_or_64k"))
print(json.dumps(out, indent=1))
PY
tar czf $OUT/batches-logs.tgz -C $W --exclude=cache --exclude='*.records.jsonl' . 2>/dev/null

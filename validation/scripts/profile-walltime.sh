#!/usr/bin/env bash
# Wall time of `roofline-cuda profile` against `ncu --set roofline` on the PyTorch script
# (tests/apps/torch_ops.py, cache control all, clocks not locked): the NVTX range "ops" once,
# then every launch of the script in ROUNDS rounds (default 3), each round the script alone, ncu
# and profile one after the other on an idle machine; then 100 profiled launches of
# tests/apps/many_kernels.cu with the profiler's time breakdown. The script's own time varies
# by seconds from run to run, so the all-launches figures are medians over the rounds, each
# round's ratio beside them. Writes $OUT/profile-walltime.json.
# Usage (GPU machine, after a build): OUT=dir [ROUNDS=n] validation/scripts/profile-walltime.sh BUILD_DIR
set -uo pipefail
ulimit -c 0
cd "$(dirname "$0")/../.."
BUILD="${1:-build/gpu}"
OUT="$(mkdir -p "${OUT:-out/profile-walltime}" && cd "${OUT:-out/profile-walltime}" && pwd)"
W="$(mktemp -d)"
RC="$BUILD/tools/roofline-cuda"
TORCH=(python3 tests/apps/torch_ops.py)
wall() { # name, command...: seconds of wall time into $W/name
  local name=$1; shift
  local a b
  a=$(date +%s.%N); "$@" >"$W/$name.out" 2>"$W/$name.err"; echo "rc=$?" >>"$W/$name.err"
  b=$(date +%s.%N); awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", b - a }' >"$W/$name.s"
}
"${TORCH[@]}" >/dev/null 2>&1 # warm the file cache and the CUDA JIT cache for every run below
ROUNDS="${ROUNDS:-3}"
wall plain "${TORCH[@]}"
wall ncu ncu --set roofline --cache-control all --clock-control none --nvtx --nvtx-include "ops/" \
  "${TORCH[@]}"
wall roofkit "$RC" profile --nvtx ops --records "$W/torch.jsonl" -o "$W/torch.json" -- "${TORCH[@]}"
# Every launch of the script on both sides (the same hierarchical content, no filter).
for r in $(seq 1 "$ROUNDS"); do
  wall "plain_$r" "${TORCH[@]}"
  wall "ncu_all_$r" ncu --set roofline --cache-control all --clock-control none "${TORCH[@]}"
  wall "roofkit_all_$r" "$RC" profile --sample all --records "$W/torch_all_$r.jsonl" -o "$W/torch_all_$r.json" \
    -- "${TORCH[@]}"
done
wall many "$RC" profile --launch-count 100 --records "$W/many.jsonl" -o "$W/many.json" -- \
  "$BUILD/tests/apps/roofkit_app_many_kernels" 10000
export DEVICE="$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"
export NCU_VERSION="$(ncu --version 2>/dev/null | tail -1)"
export TORCH_VERSION="$(python3 -c 'import torch; print(torch.__version__)' 2>/dev/null)"
python3 - "$W" "$OUT/profile-walltime.json" "$ROUNDS" <<'PY'
import json, statistics, sys
w, out, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
s = lambda n: float(open(f"{w}/{n}.s").read())
def recs(n):
    launches, time = 0, {}
    for line in open(f"{w}/{n}.jsonl"):
        j = json.loads(line)
        launches += j.get("type") == "launch"
        if j.get("type") == "profiler_time":
            time = {k: v for k, v in j.items() if k != "type"}
    return launches, time
ncu_kernels = sum(1 for l in open(f"{w}/ncu.out") if l.startswith("  ") and "(" in l and "Context" in l)
tl, tt = recs("torch")
per_round = []
for i in range(1, rounds + 1):
    launches, time = recs(f"torch_all_{i}")
    p, n, k = s(f"plain_{i}"), s(f"ncu_all_{i}"), s(f"roofkit_all_{i}")
    per_round.append({"plain": p, "ncu_set_roofline": n, "roofkit": k, "ratio": k / n,
                      "ratio_net_of_plain": (k - p) / (n - p), "profiled_launches": launches,
                      "profiler_time_s": time})
med = lambda key: statistics.median(r[key] for r in per_round)
al, at = per_round[0]["profiled_launches"], per_round[0]["profiler_time_s"]
ml, mt = recs("many")
import datetime, os
r = {
  "schema": "roofkit.validation/1",
  "device": os.environ.get("DEVICE", ""), "ncu": os.environ.get("NCU_VERSION", ""),
  "torch": os.environ.get("TORCH_VERSION", ""),
  "date": datetime.date.today().isoformat(),
  "git_revision": os.environ.get("ROOFKIT_GIT_REVISION", ""),
  "what": "wall time of roofline-cuda profile vs ncu --set roofline on tests/apps/torch_ops.py (the NVTX range ops once, then every launch in rounds of the script alone, ncu and profile, one after the other), cache control all, clocks not locked; then 100 profiled launches of many_kernels with the profiler's time breakdown; all-launches figures are medians over the rounds",
  "commands": {
    "plain": "python3 tests/apps/torch_ops.py",
    "ncu": "ncu --set roofline --cache-control all --clock-control none --nvtx --nvtx-include ops/ python3 tests/apps/torch_ops.py",
    "roofkit": "roofline-cuda profile --nvtx ops -- python3 tests/apps/torch_ops.py",
    "ncu_all": "ncu --set roofline --cache-control all --clock-control none python3 tests/apps/torch_ops.py",
    "roofkit_all": "roofline-cuda profile --sample all -- python3 tests/apps/torch_ops.py",
    "many": "roofline-cuda profile --launch-count 100 -- roofkit_app_many_kernels 10000",
    "script": f"ROUNDS={rounds} validation/scripts/profile-walltime.sh"},
  "rounds": per_round,
  "wall_s": {"plain": s("plain"), "ncu_set_roofline": s("ncu"), "roofkit": s("roofkit"),
             "plain_all_rounds_median": med("plain"),
             "ncu_set_roofline_all_launches": med("ncu_set_roofline"),
             "roofkit_all_launches": med("roofkit"),
             "many_100_profiled": s("many")},
  "ratio": s("roofkit") / s("ncu"),
  "ratio_net_of_plain": (s("roofkit") - s("plain")) / (s("ncu") - s("plain")),
  "ratio_all_launches": med("ratio"),
  "ratio_all_launches_net_of_plain": med("ratio_net_of_plain"),
  "ratio_all_launches_by_round": [r["ratio"] for r in per_round],
  "torch_profiled_launches": tl, "torch_profiler_time_s": tt,
  "torch_all_profiled_launches": al, "torch_all_profiler_time_s": at,
  "many_profiled_launches": ml, "many_profiler_time_s": mt,
  "exit": {n: open(f"{w}/{n}.err").read().strip().splitlines()[-1]
           for n in ["plain", "ncu", "roofkit", "many"] +
           [f"{k}_{i}" for i in range(1, rounds + 1) for k in ("plain", "ncu_all", "roofkit_all")]},
}
json.dump(r, open(out, "w"), indent=1)
print(json.dumps(r, indent=1))
PY

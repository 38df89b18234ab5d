#!/usr/bin/env bash
# Wall time of `roofline-cuda profile` against `ncu --set roofline` on the PyTorch script
# (tests/apps/torch_ops.py, NVTX range "ops", cache control all, clocks not locked), run one
# after the other on an idle machine, beside the script alone; then 100 profiled launches of
# tests/apps/many_kernels.cu with the profiler's time breakdown. Writes $OUT/profile-walltime.json.
# Usage (GPU machine, after a build): OUT=dir scripts/profile-walltime.sh BUILD_DIR
set -uo pipefail
ulimit -c 0
cd "$(dirname "$0")/.."
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
wall plain "${TORCH[@]}"
wall ncu ncu --set roofline --cache-control all --clock-control none --nvtx --nvtx-include "ops/" \
  "${TORCH[@]}"
wall roofkit "$RC" profile --nvtx ops --records "$W/torch.jsonl" -o "$W/torch.json" -- "${TORCH[@]}"
wall many "$RC" profile --launch-count 100 --records "$W/many.jsonl" -o "$W/many.json" -- \
  "$BUILD/tests/apps/roofkit_app_many_kernels" 10000
python3 - "$W" "$OUT/profile-walltime.json" <<'PY'
import json, sys
w, out = sys.argv[1], sys.argv[2]
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
ml, mt = recs("many")
r = {
  "what": "wall time of roofline-cuda profile vs ncu --set roofline on tests/apps/torch_ops.py (NVTX range ops), one after the other, cache control all, clocks not locked; then 100 profiled launches of many_kernels with the profiler's time breakdown",
  "commands": {
    "plain": "python3 tests/apps/torch_ops.py",
    "ncu": "ncu --set roofline --cache-control all --clock-control none --nvtx --nvtx-include ops/ python3 tests/apps/torch_ops.py",
    "roofkit": "roofline-cuda profile --nvtx ops -- python3 tests/apps/torch_ops.py",
    "many": "roofline-cuda profile --launch-count 100 -- roofkit_app_many_kernels 10000",
    "script": "scripts/profile-walltime.sh"},
  "wall_s": {"plain": s("plain"), "ncu_set_roofline": s("ncu"), "roofkit": s("roofkit"), "many_100_profiled": s("many")},
  "ratio": s("roofkit") / s("ncu"),
  "ratio_net_of_plain": (s("roofkit") - s("plain")) / (s("ncu") - s("plain")),
  "torch_profiled_launches": tl, "torch_profiler_time_s": tt,
  "many_profiled_launches": ml, "many_profiler_time_s": mt,
  "exit": {n: open(f"{w}/{n}.err").read().strip().splitlines()[-1] for n in ("plain", "ncu", "roofkit", "many")},
}
json.dump(r, open(out, "w"), indent=1)
print(json.dumps(r, indent=1))
PY

#!/usr/bin/env bash
# The gated profile (warpgroup-MMA counters only for launches that run GMMA instructions): what
# the gate counter costs a pass, what a launch costs gated and not (roofkit-profiler-cost), the
# dense GEMMs of scripts/lab/tensor_dense.py profiled gated (their tensor ops must be those of
# data/validation/profile-pass-cost-h100.json), then scripts/profile-walltime.sh.
# Usage (GPU machine): OUT=dir scripts/lab/gate-check.sh [BUILD_DIR]
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD="${1:-build/gpu}"
OUT="$(mkdir -p "${OUT:-out/gate-check}" && cd "${OUT:-out/gate-check}" && pwd)"
source scripts/cuda-env.sh
{ cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DCMAKE_CUDA_COMPILER="$CUDA_HOME/bin/nvcc" &&
    cmake --build "$BUILD" -j 16 --target roofkit-profiler-cost roofline-cuda roofkit_inject \
      roofkit_app_many_kernels; } >"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
COST="$BUILD/tests/validation/roofkit-profiler-cost"
{ "$COST" 10 each sm__inst_executed_pipe_tensor_op_gmma.sum l1tex__lsu_writeback_active_mem_lgds.sum
  "$COST" 20; } >"$OUT/cost.jsonl" 2>"$OUT/cost.err"
echo "cost rc=$?"
python3 scripts/lab/set_cost_table.py "$OUT/cost.jsonl" | grep -E "gmma|lgds|^bench "
"$BUILD/tools/roofline-cuda" profile --records "$OUT/tensor.jsonl" -o "$OUT/tensor.json" -- \
  python3 scripts/lab/tensor_dense.py >"$OUT/tensor.out" 2>&1
echo "profile tensor_dense rc=$?"
grep profiler_time "$OUT/tensor.jsonl" | python3 -c "import json,sys; j=json.loads(sys.stdin.read()); print({k: j[k] for k in ('calls', 'gated_ranges', 'gate_reruns')})"
python3 - "$OUT/tensor.json" <<'PY'
import json, sys
for k in json.load(open(sys.argv[1]))["kernels"]:
    c = k["counters"]
    print(k["name"][:48], "gmma inst", c.get("sm__inst_executed_pipe_tensor_op_gmma.sum"),
          {m: v for m, v in c.items() if "ops_path" in m and v})
PY
OUT="$OUT/wt" ROOFKIT_GIT_REVISION="${ROOFKIT_GIT_REVISION:-}" scripts/profile-walltime.sh "$BUILD" >/dev/null 2>&1
python3 -c "
import json; d=json.load(open('$OUT/wt/profile-walltime.json'))
print(json.dumps({k: d[k] for k in ('wall_s', 'ratio', 'ratio_net_of_plain', 'ratio_all_launches', 'ratio_all_launches_net_of_plain')}))
t=d['torch_all_profiler_time_s']; n=t['calls']; print({k: round(v*1e3/n, 2) if k.endswith('_s') else v for k, v in sorted(t.items())})"

#!/usr/bin/env bash
# Where a profiled launch's replay passes spend their time, by pass and by the kind of counter
# (SASS-patched or hardware): roofkit-profiler-cost's sets, then every launch of the PyTorch
# script under roofline-cuda profile with its per-pass start and stop times.
# Usage (GPU machine): OUT=dir validation/lab/pass-cost.sh [BUILD_DIR]
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD="${1:-build/gpu}"
OUT="$(mkdir -p "${OUT:-out/pass-cost}" && cd "${OUT:-out/pass-cost}" && pwd)"
source validation/lab/build-targets.sh roofkit-profiler-cost roofline-cuda roofkit_inject roofkit_app_many_kernels
touch "$OUT/profiler-cost.jsonl"
[ -n "${EACH_ONLY:-}" ] ||
  "$BUILD/validation/programs/roofkit-profiler-cost" 20 >"$OUT/profiler-cost.jsonl" 2>"$OUT/profiler-cost.err"
echo "profiler-cost rc=$?"
"$BUILD/validation/programs/roofkit-profiler-cost" 10 each >"$OUT/profiler-cost-each.jsonl" \
  2>"$OUT/profiler-cost-each.err"
echo "profiler-cost each rc=$?"
[ -n "${EACH_ONLY:-}" ] || {
python3 tests/apps/torch_ops.py >/dev/null 2>&1
a=$(date +%s.%N)
"$BUILD/tools/roofline-cuda" profile --records "$OUT/torch-all.jsonl" -o "$OUT/torch-all.json" -- \
  python3 tests/apps/torch_ops.py >"$OUT/torch-all.out" 2>&1
echo "torch all rc=$? wall $(awk -v a="$a" -v b="$(date +%s.%N)" 'BEGIN{print b-a}')"
grep profiler_time "$OUT/torch-all.jsonl"
}
python3 - "$OUT/profiler-cost.jsonl" "$OUT/profiler-cost-each.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]).readlines() + open(sys.argv[2]).readlines():
    j = json.loads(line)
    if "error" in j:
        print(j["set"], j["mode"], "error", j["error"]); continue
    t = j["stats_total"]; b = j["stats_after_first"]
    n = j["launches"]
    per = lambda k: [round((x - (b[k][i] if i < len(b[k]) else 0)) * 1e3 / n, 2) for i, x in enumerate(t[k])]
    print(f'{j["set"]:56s} {j["mode"]:26s} passes {j["passes"]} {j["wall_per_launch_s"]*1e3:7.1f} ms/launch'
          f' start {per("start_s_by_pass")} stop {per("stop_s_by_pass")}')
PY
# Dense tensor work: each family's counter against its _sparsity_off and _sparsity_on counters.
M=""
for f in op_hgmma_src_fp16 op_hgmma_src_bf16_dst_fp32 src_fp8 op_igmma_src_int8; do
  for v in "" _sparsity_off _sparsity_on; do M="$M,sm__ops_path_tensor_${f}${v}.sum"; done
done
ncu --cache-control all --clock-control none --csv --print-units base --metrics "${M#,}" \
  python3 validation/lab/tensor_dense.py >"$OUT/tensor-dense-ncu.csv" 2>&1
echo "ncu tensor rc=$?"
"$BUILD/validation/programs/roofkit-profiler-cost" 10 each ${M//,/ } >"$OUT/profiler-cost-sparsity.jsonl" 2>&1
"$BUILD/tools/roofline-cuda" profile -o "$OUT/tensor-dense.json" -- python3 validation/lab/tensor_dense.py \
  >"$OUT/tensor-dense.out" 2>&1
echo "profile tensor rc=$?"
python3 - "$OUT" <<'PY'
import csv, json, sys, io
out = sys.argv[1]
text = open(f"{out}/tensor-dense-ncu.csv").read()
rows = [l for l in text.splitlines() if l.startswith('"')]
for r in csv.DictReader(io.StringIO("\n".join(rows))):
    if float(r["Metric Value"].replace(",", "") or 0) > 0:
        print("ncu", r["ID"], r["Kernel Name"][:50], r["Metric Name"], r["Metric Value"])
for line in open(f"{out}/profiler-cost-sparsity.jsonl"):
    j = json.loads(line)
    if "error" in j:
        print(j["set"], "error", j["error"][:100]); continue
    t = j["stats_total"]; b = j["stats_after_first"]; n = j["launches"]
    print(f'{j["set"]:64s} {j["wall_per_launch_s"]*1e3:6.1f} ms start {(t["start_s"]-b["start_s"])*1e3/n:.2f}')
run = json.load(open(f"{out}/tensor-dense.json"))
for k in run.get("kernels", run.get("launches", [])):
    c = k.get("counters", {})
    print("profile", k.get("name", "")[:50], {m: v for m, v in c.items() if "ops_path" in m and v})
PY

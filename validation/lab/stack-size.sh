#!/usr/bin/env bash
# Does the local memory the driver reserves per thread change a kernel's DRAM writes? The
# register kernels that spill (registers/spill, registers/maxnreg-32) differ most between
# roofkit and ncu. roofkit-suite under ncu's one-pass DRAM collection (twice at the default
# stack limit, for ncu's own spread) and under roofkit's profiler (profile-each, cache control
# all), with the default per-thread stack limit and with ROOFKIT_SUITE_STACK_BYTES=16384; each
# run logs its stack limit and free device memory at start and end (ROOFKIT_SUITE_LMEM_LOG).
# Results under $OUT/stack: stack.json (dram_compare_json.py) and the runs.
# Usage: OUT=dir [BUILD=build/gpu] validation/lab/stack-size.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
source validation/lab/suite-lab.sh stack
export ROOFKIT_SUITE_LMEM_LOG=1
ncu_suite_dram ncu-default
"$S" profile-each all "$OUT/ours-default.json" 2>"$OUT/ours-default.err"
echo "stack: roofkit default rc=$?"
export ROOFKIT_SUITE_STACK_BYTES=16384
ncu_suite_dram ncu-16k
"$S" profile-each all "$OUT/ours-16k.json" 2>"$OUT/ours-16k.err"
echo "stack: roofkit 16384 rc=$?"
unset ROOFKIT_SUITE_STACK_BYTES
ncu_suite_dram ncu-default-2
grep -h "stack limit" "$OUT"/*.err "$OUT"/*.csv 2>/dev/null | sort | uniq -c
python3 validation/lab/dram_compare_json.py ncu_default="$OUT/ncu-default.csv" \
  ncu_default_2="$OUT/ncu-default-2.csv" ncu_16k="$OUT/ncu-16k.csv" \
  roofkit_default="$OUT/ours-default.json" roofkit_16k="$OUT/ours-16k.json" \
  --pairs ncu_default_2:ncu_default,ncu_16k:ncu_default,roofkit_default:ncu_default,roofkit_16k:ncu_16k,roofkit_16k:roofkit_default \
  >"$OUT/stack.json"
python3 - "$OUT/stack.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(d["agreement"])
for r in d["rows"]:
    if any(k in r["kernel"] for k in ("registers/", "cliff/", "gemm/tiled", "reduce/atomic")):
        print(r["kernel"], {k: round(v / 1e6, 3) for k, v in r.items() if k != "kernel"})
PY

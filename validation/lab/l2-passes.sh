#!/usr/bin/env bash
# Is the small L2 excess of roofkit's short kernels (lts__lts2xbar_cycles_active, +0.1-0.7% on
# the 16 MB shared-memory and divergence kernels) what a kernel costs when its code is not yet in
# the SMs' instruction caches? ncu's kernel replay runs a kernel in consecutive passes, so its
# later passes find the code there; roofkit's bench runs each kernel once a pass among the
# others. The L1 and L2 counters of every roofkit-suite launch: roofkit (profile-each), ncu with
# them alone (one pass), ncu with roofkit's metric list under kernel replay (several passes, as
# the suite comparison) and under application replay (a fresh process each pass). Cache control
# all, clocks not locked. Results under $OUT/l2-passes, summarised by l2_passes_json.py.
# Usage: OUT=dir [BUILD=build/gpu] validation/lab/l2-passes.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
source validation/lab/suite-lab.sh l2-passes
COMMON=(--cache-control all --clock-control none --profile-from-start off --print-units base --csv)
"$S" profile-each all "$OUT/ours.json" 2>"$OUT/ours.log"
echo "l2-passes: roofkit rc=$?"
metrics=$(python3 -c "import json; print(','.join(json.load(open('$OUT/ours.json'))['metrics']))")
timeout 150 ncu "${COMMON[@]}" \
  --metrics lts__lts2xbar_cycles_active.sum,l1tex__lsu_writeback_active_mem_lgds.sum \
  "$S" plain >"$OUT/ncu-one-pass.csv" 2>"$OUT/ncu-one-pass.err"
echo "l2-passes: ncu, the two counters alone, rc=$?"
timeout 300 ncu "${COMMON[@]}" --metrics "$metrics" "$S" plain >"$OUT/ncu-kernel-replay.csv" \
  2>"$OUT/ncu-kernel-replay.err"
echo "l2-passes: ncu, kernel replay, rc=$?"
timeout 300 ncu --replay-mode application "${COMMON[@]}" --metrics "$metrics" "$S" plain \
  >"$OUT/ncu-app-replay.csv" 2>"$OUT/ncu-app-replay.err"
echo "l2-passes: ncu, application replay, rc=$?"

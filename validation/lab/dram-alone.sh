#!/usr/bin/env bash
# Do roofkit's DRAM counts depend on the metric set they are collected with? roofkit-suite
# profile-each (cache control all) with the bench's set (4 passes), with the two DRAM metrics
# alone (1 pass) and with one SASS counter beside them (2 passes), against ncu's one-pass DRAM
# collection, each twice in one session. Results under $OUT/dram-alone.
# Usage: OUT=dir [BUILD=build/gpu] validation/lab/dram-alone.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
source validation/lab/suite-lab.sh dram-alone
for run in 1 2; do
  "$S" profile-each all "$OUT/ours-bench-$run.json" 2>"$OUT/ours-bench-$run.err"
  echo "dram-alone: roofkit bench set, run $run rc=$?"
  ROOFKIT_SUITE_METRICS=$DRAM "$S" profile-each all "$OUT/ours-dram-$run.json" \
    2>"$OUT/ours-dram-$run.err"
  echo "dram-alone: roofkit DRAM alone, run $run rc=$?"
  ROOFKIT_SUITE_METRICS=$DRAM,smsp__sass_inst_executed.sum "$S" profile-each all \
    "$OUT/ours-dram-sass-$run.json" 2>"$OUT/ours-dram-sass-$run.err"
  echo "dram-alone: roofkit DRAM + a SASS counter, run $run rc=$?"
  ncu_suite_dram ncu-dram-$run
done

#!/usr/bin/env bash
# Does the L1/shared-memory split explain why the register kernels write more to DRAM under
# roofkit than under ncu (registers/spill: +4-6 MB, with 4% more L2-to-SM traffic)? The register
# and fold kernels of roofkit-suite with the device's preferred cache configuration left alone,
# set to prefer L1, and set to prefer shared memory (ROOFKIT_SUITE_CACHE_CONFIG): ncu's one-pass
# DRAM collection and its launch statistics (shared-memory configuration) of the plain run, and
# roofkit's profile-each with the DRAM metrics and the L2-to-SM cycles. Results under
# $OUT/carveout, the table in $OUT/carveout/summary.json (validation/lab/carveout_json.py).
# Usage: OUT=dir [BUILD=build/gpu] validation/lab/carveout.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
source validation/lab/suite-lab.sh carveout
REGEX='^(registers/|cliff/fold)'
for cfg in default L1 shared; do
  v=$cfg
  [ "$cfg" = default ] && v=
  ROOFKIT_SUITE_CACHE_CONFIG=$v timeout 150 ncu --cache-control all --clock-control none \
    --profile-from-start off --print-units base --csv --metrics $DRAM "$S" plain "$REGEX" \
    >"$OUT/ncu-$cfg.csv" 2>"$OUT/ncu-$cfg.err"
  echo "carveout: ncu $cfg rc=$?"
  ROOFKIT_SUITE_CACHE_CONFIG=$v timeout 150 ncu --cache-control all --clock-control none \
    --profile-from-start off --print-units base --csv --section LaunchStats "$S" plain "$REGEX" \
    >"$OUT/ncu-launch-$cfg.csv" 2>"$OUT/ncu-launch-$cfg.err"
  echo "carveout: ncu launch statistics $cfg rc=$?"
  ROOFKIT_SUITE_CACHE_CONFIG=$v ROOFKIT_SUITE_METRICS=$DRAM,lts__lts2xbar_cycles_active.sum \
    "$S" profile-each all "$OUT/ours-$cfg.json" "$REGEX" 2>"$OUT/ours-$cfg.err"
  echo "carveout: roofkit $cfg rc=$?"
done
python3 validation/lab/carveout_json.py "$OUT" >"$OUT/summary.json"
echo "carveout: summary rc=$?"

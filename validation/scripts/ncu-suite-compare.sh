#!/usr/bin/env bash
# Every bundled kernel under roofkit's profiler (the bench's metric set) and under Nsight
# Compute with the same metrics, launch by launch, with --cache-control all and none on both
# sides, then the wall time of the whole suite: roofkit vs `ncu --set roofline`. Run on a GPU
# machine after building roofkit-suite (scripts/gpu-check.sh does):
#   validation/scripts/ncu-suite-compare.sh BUILD_DIR       (results under $OUT)
# Writes ncu-compare-suite-{all,none}-<chip>.json (DRAM bytes judged against ncu's one-pass
# collection of the DRAM metrics), ncu-compare-suite-dram-app-replay-<chip>.json and
# ncu-walltime-suite-<chip>.json.
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD="${1:-build/gpu}"
OUT="${OUT:-out/ncu-suite}"
mkdir -p "$OUT"
LOG="$(mktemp -d)"
S="$BUILD/validation/programs/roofkit-suite"
# Both sides fill the same random data: a few kernels' instruction counts depend on it (the
# IEEE division's slow path, taken for a handful of inputs, adds 28 instructions per warp).
export ROOFKIT_SEED="${ROOFKIT_SEED:-20261124}"
NCU="$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | tail -1)"
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
echo "ncu-suite: $("$NCU" --version | tail -1)"
# Where the figures come from, stamped into every file written (ncu_suite_compare.py).
python3 - "$LOG/provenance.json" "$BUILD" \
  "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)" \
  "$("$NCU" --version | tail -1)" "$(git rev-parse --short HEAD 2>/dev/null)" <<'PY'
import datetime, json, os, sys
path, build, gpu, ncu, head = sys.argv[1:]
json.dump({"device": gpu + ", Nsight Compute " + ncu,
           "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
           "git_revision": os.environ.get("ROOFKIT_GIT_REVISION") or head,
           "run_by": f"ROOFKIT_SEED={os.environ['ROOFKIT_SEED']} validation/scripts/ncu-suite-compare.sh {build}"},
          open(path, "w"))
PY

for cache in all none; do
  t=$(now)
  # One kernel at a time, set up just before and freed just after, as in the plain run ncu
  # profiles: the same allocation order, so the same buffer placement. In the bench's batches
  # placement differs, and the L2 evicts a different number of dirty lines from a kernel whose
  # output stays mostly in it (0.2-0.3 MB of 16 MB: validation/scripts/ncu-dram-passes.sh).
  "$S" profile-each "$cache" "$LOG/ours-$cache.json" 2>"$LOG/ours-$cache.log"
  echo "ncu-suite: ours $cache rc=$? in $(since "$t") s"
  metrics=$(python3 -c "import json;print(','.join(json.load(open('$LOG/ours-$cache.json'))['metrics']))")
  cmd=("$NCU" --cache-control "$cache" --clock-control none --profile-from-start off
       --print-units base --csv --metrics "$metrics" "$S" plain)
  echo "ncu --cache-control $cache --clock-control none --profile-from-start off --print-units base --csv --metrics <the metrics of ours-$cache.json> roofkit-suite plain" >"$LOG/ncu-$cache.cmd"
  t=$(now)
  timeout 300 "${cmd[@]}" >"$LOG/ncu-$cache.csv" 2>"$LOG/ncu-$cache.err"
  echo "ncu-suite: ncu $cache rc=$? in $(since "$t") s"
  # A second ncu run: its run-to-run spread is the yardstick for hardware event counters.
  if [ "$cache" = all ]; then
    timeout 300 "${cmd[@]}" >"$LOG/ncu-$cache-2.csv" 2>"$LOG/ncu-$cache-2.err"
    echo "ncu-suite: ncu $cache (second run) rc=$?"
  fi
  # The DRAM bytes' reference: ncu with the two DRAM metrics alone, which it collects in one
  # pass. With more passes, its kernel replay restores device memory before each later pass and
  # the restore's dirty lines add about 2.2 MB of writes to whichever pass holds the DRAM
  # counters (validation/scripts/ncu-dram-passes.sh). Twice, for ncu's own spread.
  for run in 1 2; do
    timeout 120 "$NCU" --cache-control "$cache" --clock-control none --profile-from-start off \
      --print-units base --csv --metrics dram__bytes_read.sum,dram__bytes_write.sum "$S" plain \
      >"$LOG/ncu-dram-$cache-$run.csv" 2>"$LOG/ncu-dram-$cache-$run.err"
    echo "ncu-suite: ncu $cache, DRAM metrics alone (one pass), run $run rc=$?"
  done
done

# DRAM bytes under ncu's application replay (no save and restore of device memory between
# passes): tells ncu's own replay traffic apart from the kernels'.
timeout 200 "$NCU" --replay-mode application --cache-control all --clock-control none \
  --profile-from-start off --print-units base --csv \
  --metrics dram__bytes_read.sum,dram__bytes_write.sum "$S" plain >"$LOG/ncu-app-replay.csv" \
  2>"$LOG/ncu-app-replay.err"
echo "ncu-suite: ncu application replay (DRAM bytes) rc=$?"

# Wall time, same run: the suite plainly, under roofkit, under ncu --set roofline (cache on).
t=$(now); "$S" plain >/dev/null 2>&1; plain=$(since "$t")
t=$(now); "$S" profile all "$LOG/wall-ours.json" 2>/dev/null; ours=$(since "$t")
t=$(now)
timeout 400 "$NCU" --set roofline --cache-control all --clock-control none \
  --profile-from-start off "$S" plain >"$LOG/ncu-set-roofline.log" 2>&1
ncu_rc=$?; ncu=$(since "$t")
echo "ncu-suite: wall plain $plain s, roofkit $ours s, ncu --set roofline $ncu s (rc=$ncu_rc)"
cat >"$LOG/wall.json" <<JSON
{"schema": "roofkit.validation/1",
 "what": "wall time of the whole bundled suite: plain, under roofkit's profiler (bench metric set, cache control all), under ncu --set roofline (cache control all), same machine, same run",
 "commands": {"plain": "roofkit-suite plain",
              "roofkit": "roofkit-suite profile all wall-ours.json",
              "ncu_set_roofline": "ncu --set roofline --cache-control all --clock-control none --profile-from-start off roofkit-suite plain",
              "script": "validation/scripts/ncu-suite-compare.sh"},
 "wall_s": {"plain": $plain, "roofkit": $ours, "ncu_set_roofline": $ncu}}
JSON
python3 validation/scripts/ncu_suite_compare.py "$LOG" "$OUT"
tar czf "$OUT/ncu-suite-logs.tgz" -C "$LOG" .

#!/usr/bin/env bash
# The one script run on the GPU machine: builds everything, runs the GPU tests (JUnit report and
# the kernel-verification report), runs validation/scripts/bench-report.sh (the H100 run, its table, the
# seed claims and every chart, packed as report.tgz), and exports a real Nsight Compute CSV for
# the importer. Results go to $OUT (default out/gpu-check).
# Usage: scripts/gpu-check.sh [tests] [sections] [suite] [bench] [ceilings] [ncu]
#        (default: all; they run in that order)
#   ceilings: validation/scripts/ceilings-check.sh, the full run and its machine file (bench measures the
#             quick ceilings itself, or reads ROOFKIT_MACHINE_FILE when set);
#   sections: Nsight Compute's hierarchical roofline section files and metric list (the level
#             definitions); suite: every bundled kernel vs ncu (validation/scripts/ncu-suite-compare.sh).
# No silent pass: the script exits 1 when a test target failed to build, when any GPU test failed
# or was skipped (exit 77, or 3 in a schema test), or when the machine has no GPU at all. A run
# that expects skips names them: ROOFKIT_ALLOW_SKIP="regex" (ctest names, e.g.
# 'cli\.schema\.ceilings|test_x\.y').
set -uo pipefail
ulimit -c 0 # a crashing CUDA process must not spend minutes writing a core file
cd "$(dirname "$0")/.."
source scripts/cuda-env.sh
OUT="$(mkdir -p "${OUT:-out/gpu-check}" && cd "${OUT:-out/gpu-check}" && pwd)"
LOG="$OUT/logs"
mkdir -p "$LOG"
BUILD=build/gpu
steps="${*:-tests sections suite bench ceilings ncu}"
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
step() { echo "gpu-check: $*" | tee -a "$LOG/steps.log"; }

failed=()
if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "gpu-check: FAILED: no GPU on this machine (nvidia-smi -L fails); this check needs one" >&2
  exit 1
fi
step "device: $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader)"
t0=$(now)
targets=()
[[ " $steps " == *" tests "* ]] || targets=(--target roofline-cuda roofkit-suite)
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCMAKE_CUDA_COMPILER="$CUDA_HOME/bin/nvcc" >"$LOG/configure.log" 2>&1 &&
  cmake --build "$BUILD" -j "$(nproc)" "${targets[@]}" -- -k 0 >"$LOG/build.log" 2>&1
rc=$?
# A failed test target does not stop the measurements when the tools were built, but it fails
# the check: a test that was not built is never counted as passed.
if [ $rc -ne 0 ]; then
  grep -B2 -A12 -m4 "error" "$LOG/build.log"
  if [ -x "$BUILD/tools/roofline-cuda" ] && [ -x "$BUILD/validation/programs/roofkit-suite" ]; then
    failed+=("build (some targets did not build: see logs/build.log)")
    rc=0
  fi
fi
step "build rc=$rc in $(since "$t0") s"
if [ $rc -ne 0 ]; then grep -B2 -A20 -m3 "error" "$LOG/build.log"; tar czf "$OUT/logs.tgz" -C "$OUT" logs; exit 1; fi
RC="$BUILD/tools/roofline-cuda"

if [[ " $steps " == *" tests "* ]]; then
  t0=$(now)
  ROOFKIT_KERNELS_REPORT="$OUT/h100-verify.json" timeout "${ROOFKIT_GPU_TESTS_TIMEOUT:-400}" ctest --test-dir "$BUILD" -L gpu \
    ${ROOFKIT_GPU_TESTS:+-R "$ROOFKIT_GPU_TESTS"} \
    --output-on-failure --output-junit "$OUT/gpu-tests.xml" >"$LOG/gpu-tests.log" 2>&1
  test_rc=$?
  step "gpu tests rc=$test_rc in $(since "$t0") s: $(grep -E 'tests passed|tests failed' "$LOG/gpu-tests.log")"
  [ $test_rc -eq 0 ] || failed+=("gpu tests (rc=$test_rc)")
  # The GPU test executable (every file of tests/gpu) must exist: without it there are no test
  # cases to fail.
  [ -x "$BUILD/tests/roofkit_gpu_tests" ] || failed+=("not built: roofkit_gpu_tests")
  if ! skips="$(python3 scripts/junit-skips.py "$OUT/gpu-tests.xml" "${ROOFKIT_ALLOW_SKIP:-}")"; then
    failed+=("skipped tests")
  fi
  [ -n "$skips" ] && step "$skips"
  grep -E '^(cache control|shared loads|coalesced|copy|user range|roofline set)' "$LOG/gpu-tests.log" | head -20
  grep -B3 -A12 'Failure' "$LOG/gpu-tests.log" | head -80
  ctest --test-dir "$BUILD" -L cpu -j "$(nproc)" >"$LOG/cpu-tests.log" 2>&1
  cpu_rc=$?
  step "cpu tests rc=$cpu_rc: $(grep -E 'tests passed|tests failed' "$LOG/cpu-tests.log")"
  [ $cpu_rc -eq 0 ] || failed+=("cpu tests (rc=$cpu_rc)")
fi

if [[ " $steps " == *" sections "* ]] && command -v ncu >/dev/null; then
  # The hierarchical roofline's level definitions, from this ncu's own section files.
  sec_file="$(find / -name SpeedOfLight_HierarchicalSingleRooflineChart.section -not -path '/proc/*' 2>/dev/null | head -1)"
  sec_dir="$(dirname "${sec_file:-/nonexistent/x}")"
  { ncu --version | tail -1; ncu --list-sections; } >"$LOG/ncu-sections.txt" 2>&1
  for f in "$sec_dir"/SpeedOfLight_Hierarchical*.section; do
    echo "=== $(basename "$f")"; grep -E 'Name:|Expression:|MinArch|MaxArch' "$f"
  done >"$LOG/ncu-hierarchical-sections.txt" 2>&1
  ncu --query-metrics --chip gh100 >"$LOG/ncu-query-metrics.txt" 2>&1
  step "sections: $(grep -c '===' "$LOG/ncu-hierarchical-sections.txt") hierarchical section files; L1/L2 names: $(grep -ohE '(l1tex__lsu_writeback_active_mem_lgds|lts__lts2xbar_cycles_active)' "$LOG/ncu-hierarchical-sections.txt" | sort -u | tr '\n' ' ')"
  cp "$LOG/ncu-hierarchical-sections.txt" "$OUT/"
fi



if [[ " $steps " == *" suite "* ]] && command -v ncu >/dev/null; then
  t0=$(now)
  OUT="$OUT" timeout 540 validation/scripts/ncu-suite-compare.sh "$BUILD" 2>"$LOG/ncu-suite.err" | tee "$LOG/ncu-suite.log" | tail -60
  step "ncu suite compare rc=$? in $(since "$t0") s"
fi

if [[ " $steps " == *" bench "* ]]; then
  t0=$(now)
  timeout "${ROOFKIT_BENCH_TIMEOUT:-240}" validation/scripts/bench-report.sh "$BUILD" 2>"$LOG/bench.err"
  step "bench-report rc=$? in $(since "$t0") s ($(grep -c . "$LOG/bench.err") stderr lines)"
  head -c 3000 "$LOG/bench.err"
  tar czf "$OUT/report.tgz" data/runs/h100-sxm.json data/runs/h100-sxm-bench.md \
    docs/seed-claims.md plots
fi


if [[ " $steps " == *" ceilings "* ]] && [ -x validation/scripts/ceilings-check.sh ]; then
  t0=$(now)
  OUT="$OUT/ceilings" timeout "${ROOFKIT_CEILINGS_TIMEOUT:-200}" validation/scripts/ceilings-check.sh h100 \
    >"$LOG/ceilings.log" 2>&1
  step "ceilings rc=$? in $(since "$t0") s"
  tail -25 "$LOG/ceilings.log"
  [ -s "$OUT/ceilings/ceilings-h100.json" ] && cp "$OUT/ceilings/ceilings-h100.json" "$OUT/"
fi

if [[ " $steps " == *" ncu "* ]] && command -v ncu >/dev/null; then
  metrics="gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,dram__cycles_elapsed.avg.per_second"
  metrics+=",lts__cycles_elapsed.avg.per_second,l1tex__cycles_elapsed.avg.per_second"
  for op in dadd dmul dfma fadd fmul ffma hadd hmul hfma; do
    metrics+=",smsp__sass_thread_inst_executed_op_${op}_pred_on.sum"
  done
  for op in dfma ffma hfma; do
    metrics+=",smsp__sass_thread_inst_executed_op_${op}_pred_on.sum.peak_sustained"
  done
  metrics+=",dram__bytes.sum,dram__bytes.sum.peak_sustained,lts__t_bytes.sum"
  metrics+=",lts__t_bytes.sum.peak_sustained,l1tex__t_bytes.sum,l1tex__t_bytes.sum.peak_sustained"
  metrics+=",sm__warps_active.avg.pct_of_peak_sustained_active,sm__maximum_warps_per_active_cycle_pct"
  metrics+=",launch__registers_per_thread,device__attribute_display_name"
  metrics+=",device__attribute_multiprocessor_count"
  t0=$(now)
  ncu --clock-control none --cache-control none --csv --page raw --metrics "$metrics" \
    --kernel-name regex:'coalesced_kernel|strided_kernel|gemm_tiled_kernel|shared_kernel' \
    "$RC" bench -q --no-counters --reps 1 --warmup 0 \
    --kernel '^(global/coalesced|global/stride-32|gemm/tiled-32|transpose/padded)$' \
    >"$OUT/ncu-h100-raw.csv" 2>"$LOG/ncu.err"
  step "ncu export rc=$? in $(since "$t0") s"
  "$RC" plot --import-ncu "$OUT/ncu-h100-raw.csv" --term >"$LOG/ncu-import.txt" 2>&1
  step "ncu import rc=$?"
fi
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$LOG"
if ((${#failed[@]})); then
  printf 'gpu-check: FAILED: %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "gpu-check: passed (no test skipped or missing${ROOFKIT_ALLOW_SKIP:+ beyond ROOFKIT_ALLOW_SKIP})" >&2

#!/usr/bin/env bash
# The cliff evidence, run on the GPU machine: builds roofline-cuda, writes the ptxas log of the
# register-cap variants, runs the evidence sweeps of docs/cliffs.md (the seeds' register cliff,
# a memory-bound block sweep, latency- and compute-bound shared-memory sweeps; then, while time
# is left, block sweeps of both and the latency kernel's size sweep), and packs data/cliffs/*.json, the charts and the logs into $OUT/cliff.tgz.
# Prints a summary last. Budget: under 4 minutes on an H100 (build ~1.5 min, sweeps ~2 min);
# optional sweeps are skipped when the clock runs short.
# Usage: validation/scripts/gpu-cliff.sh          (results in $OUT, default out/gpu-cliff)
# Then, on any machine: tar xzf cliff.tgz && validation/scripts/cliff-findings.sh
set -uo pipefail
ulimit -c 0 # a crashing CUDA process must not spend minutes writing a core file
cd "$(dirname "$0")/../.."
source scripts/cuda-env.sh
OUT="$(mkdir -p "${OUT:-out/gpu-cliff}" && cd "${OUT:-out/gpu-cliff}" && pwd)"
WORK="$(mktemp -d)" # logs stay out of $OUT (few files come back): they go into the archive
LOG="$WORK/logs"
mkdir -p "$LOG" data/cliffs plots
BUILD="${BUILD:-build/gpu}" # BUILD=build/ci SKIP_BUILD=1: a dry run of the script elsewhere
start=$(date +%s)
elapsed() { echo $(($(date +%s) - start)); }
step() { echo "gpu-cliff: [$(elapsed) s] $*" | tee -a "$LOG/steps.log"; }

step "device: $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm \
  --format=csv,noheader 2>&1)"

# The ptxas log of the register-cap variants (same flags as the build), beside the build.
nvcc -std=c++17 -O3 -arch=sm_90 -lineinfo -Xptxas -v -I kernels -I lib/include \
  -c kernels/cliff/cliff_regs.cu -o /dev/null >"$LOG/fold-cap-ptxas.log" 2>&1 &
ptxas_pid=$!
if [ -n "${SKIP_BUILD:-}" ]; then
  rc=0
else
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DCMAKE_CUDA_COMPILER="$CUDA_HOME/bin/nvcc" >"$LOG/configure.log" 2>&1 &&
    cmake --build "$BUILD" -j 16 --target roofline-cuda >"$LOG/build.log" 2>&1
  rc=$?
fi
wait $ptxas_pid
step "build rc=$rc; ptxas log: $(grep -c 'Compiling entry' "$LOG/fold-cap-ptxas.log") entries"
if [ $rc -ne 0 ]; then
  grep -B2 -A20 -m3 "error" "$LOG/build.log"
  tar czf "$OUT/cliff.tgz" -C "$WORK" logs
  exit 1
fi
RC="$BUILD/tools/roofline-cuda"
cp "$LOG/fold-cap-ptxas.log" data/cliffs/h100-fold-cap-ptxas.log

# name | kernel | sweep | range | extra options | optional (run while time is left)
sweeps=(
  "h100-fold-cap-regs|cliff/fold-cap|regs|24:64:1|--ptxas data/cliffs/h100-fold-cap-ptxas.log|no"
  "h100-triad-block|cliff/triad|block|32:1024:32|--size 32M|no"
  "h100-chase-smem|cliff/chase|smem|0:224K:8K||no"
  "h100-fma-smem|cliff/fma|smem|0:224K:8K|--size 8M|no"
  "h100-chase-block|cliff/chase|block|32:1024:32||yes"
  "h100-chase-size|cliff/chase|size|1K:256M:x4||yes"
  "h100-fma-block|cliff/fma|block|32:1024:32|--size 8M|yes"
)
done_list=()
for s in "${sweeps[@]}"; do
  IFS='|' read -r name kernel sweep range extra optional <<<"$s"
  if [ "$optional" = yes ] && [ "$(elapsed)" -gt 185 ]; then
    step "$name skipped: $(elapsed) s used of the 240 s budget"
    continue
  fi
  t0=$(date +%s)
  # shellcheck disable=SC2086
  timeout 100 "$RC" cliff -q --kernel "$kernel" --sweep "$sweep" --range "$range" $extra --reps 10 \
    -o "data/cliffs/$name.json" --plot "plots/cliff-$name.svg" --plot "plots/cliff-$name.html" \
    >"$LOG/$name.md" 2>"$LOG/$name.err"
  rc=$?
  step "$name rc=$rc in $(($(date +%s) - t0)) s ($(grep -c . "$LOG/$name.err") stderr lines)"
  [ -f "data/cliffs/$name.json" ] && done_list+=("$name")
  head -c 1500 "$LOG/$name.err"
done

# shellcheck disable=SC2046
tar czf "$OUT/cliff.tgz" data/cliffs $(ls plots/cliff-* 2>/dev/null) -C "$WORK" logs
step "packed $OUT/cliff.tgz ($(du -h "$OUT/cliff.tgz" | cut -f1))"
{
echo
echo "== summary =="
for name in "${done_list[@]}"; do
  "$RC" cliff --from "data/cliffs/$name.json" --csv 2>/dev/null |
    awk -v n="$name" -F, '/^at,predicted/ { ev = 1; next } /^value,status/ { ev = 0 }
      ev && NF { v[$4]++ } END { printf "%-22s", n; for (k in v) printf "  %s: %d", k, v[k]; print "" }'
done
echo "total $(elapsed) s"
} | tee "$OUT/summary.txt"

#!/usr/bin/env bash
# Measures this GPU's ceilings on the GPU machine and keeps the evidence: builds roofline-cuda,
# checks the instruction mix of the ceiling kernels (validation/scripts/ceilings-sass.sh), times
# `ceilings --quick`, runs the full `ceilings --save` (the machine file, with cudaMemcpy, cuBLAS
# and cuBLASLt side by side), and reads the L1 and L2 hit rates of the L2 sweep kernel with ncu.
# Writes to $OUT (default out/ceilings-check): ceilings-<gpu>.json (the machine file),
# ceilings-<gpu>.md, quick.md, sass.txt, ncu-l2-sweep.csv, logs/.
# Usage: validation/scripts/ceilings-check.sh [gpu-tag]   (tag default: h100)
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/cuda-env.sh
tag=${1:-h100}
OUT="$(mkdir -p "${OUT:-out/ceilings-check}" && cd "${OUT:-out/ceilings-check}" && pwd)"
LOG="$OUT/logs"
mkdir -p "$LOG"
BUILD=build/gpu
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
step() { echo "ceilings-check: $*" | tee -a "$LOG/steps.log"; }

step "device: $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,power.limit --format=csv,noheader)"
t0=$(now)
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCMAKE_CUDA_COMPILER="$CUDA_HOME/bin/nvcc" >"$LOG/configure.log" 2>&1 &&
  cmake --build "$BUILD" -j "$(nproc)" --target roofline-cuda >"$LOG/build.log" 2>&1
rc=$?
step "build rc=$rc in $(since "$t0") s"
if [ $rc -ne 0 ]; then grep -B2 -A20 -m3 "error" "$LOG/build.log"; exit 1; fi
RC="$BUILD/tools/roofline-cuda"

validation/scripts/ceilings-sass.sh "$RC" >"$OUT/sass.txt" 2>&1
step "sass rc=$?: $(tail -1 "$OUT/sass.txt")"

t0=$(now)
timeout 60 "$RC" ceilings --quick --quiet >"$OUT/quick.md" 2>"$LOG/quick.err"
step "ceilings --quick rc=$? in $(since "$t0") s"

t0=$(now)
cmd="roofline-cuda ceilings --save ceilings-$tag.json"
timeout 170 "$RC" ceilings --quiet --save "$OUT/ceilings-$tag.json" >"$OUT/ceilings-$tag.md" \
  2>"$LOG/full.err"
step "ceilings (full) rc=$? in $(since "$t0") s"
head -c 2000 "$LOG/full.err"
# The evidence names no path of the machine it ran on.
sed -i "s|$OUT/||g" "$OUT/ceilings-$tag.md"
if [ -f "$OUT/ceilings-$tag.json" ]; then
  python3 - "$OUT/ceilings-$tag.json" "$cmd" <<'PY'
import json, sys
path, cmd = sys.argv[1], sys.argv[2]
d = json.load(open(path))
d["command"] = cmd
json.dump(d, open(path, "w"), indent=2)
PY
fi

if command -v ncu >/dev/null; then
  t0=$(now)
  # The triad sweep (kind 5: ld.cg loads and stores, the L2 roof's kernel) at working sets of
  # 4-16 MiB: launches 160-209 of that kernel in --quick (10 launches per working set, from
  # 16 KiB in steps of sqrt 2). Global loads must show no L1 hits (ld.cg).
  timeout 120 ncu --clock-control none --kernel-name-base mangled -k regex:sweep_kernelILi5E \
    --launch-skip 160 --launch-count 50 --csv \
    --metrics l1tex__t_sector_hit_rate.pct,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,l1tex__t_sector_pipe_lsu_mem_global_op_st_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,lts__t_sector_hit_rate.pct,l1tex__t_bytes.sum,lts__t_bytes.sum,dram__bytes_read.sum,gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second \
    "$RC" ceilings --quick --quiet --no-references >"$OUT/ncu-l2-sweep.csv" 2>"$LOG/ncu.err"
  step "ncu L2 sweep rc=$? in $(since "$t0") s"
  sed -i "s|$PWD/||g" "$OUT/ncu-l2-sweep.csv"
fi
step "summary:"
grep -E "^\| (l1|l2|dram|fp64|fp32|fp16|bf16|tensor_)" "$OUT/ceilings-$tag.md" | head -20

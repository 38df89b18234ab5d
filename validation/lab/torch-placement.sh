#!/usr/bin/env bash
# Does where PyTorch's buffers land in device memory move the DRAM bytes of the PyTorch script's
# kernels (tests/apps/torch_ops.py, NVTX range "ops"), under ncu's one-pass DRAM collection and
# under roofline-cuda profile? TORCH_OPS_PAD_MB = 0 (twice), 256 and 1024: an untouched
# allocation made before every tensor, which moves every later buffer. Both tools: cache control
# all, clocks not locked; ncu also profiles the script's primer, which takes the DRAM writes it
# adds to its first profiled launch. Results under $OUT/torch-placement, summarised by
# validation/lab/torch_placement_json.py.
# Usage (GPU machine, after a build of build/gpu): OUT=dir validation/lab/torch-placement.sh
set -uo pipefail
ulimit -c 0
cd "$(dirname "$0")/../.."
RC="${BUILD:-build/gpu}/tools/roofline-cuda"
R="$(mkdir -p "${OUT:-out}/torch-placement" && cd "${OUT:-out}/torch-placement" && pwd)"
TORCH=(python3 tests/apps/torch_ops.py)
"${TORCH[@]}" >/dev/null 2>&1 # warm the file and JIT caches
for run in ${RUNS:-0a 0b 256 1024}; do
  pad=${run%[ab]}
  export TORCH_OPS_PAD_MB=$pad
  timeout 120 ncu --metrics dram__bytes_read.sum,dram__bytes_write.sum --print-units base \
    --cache-control all --clock-control none --csv --page raw --nvtx --nvtx-include "primer/" \
    --nvtx-include "ops/" "${TORCH[@]}" >"$R/ncu-pad$run.csv" 2>"$R/ncu-pad$run.err"
  echo "torch-placement: ncu pad $run MiB rc=$?"
  timeout 120 "$RC" profile --nvtx ops --records "$R/ours-pad$run.jsonl" -o "$R/ours-pad$run.json" \
    -- "${TORCH[@]}" >"$R/ours-pad$run.out" 2>"$R/ours-pad$run.err"
  echo "torch-placement: roofline-cuda profile pad $run MiB rc=$? ($(tail -1 "$R/ours-pad$run.out"))"
done
unset TORCH_OPS_PAD_MB

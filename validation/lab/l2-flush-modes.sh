#!/usr/bin/env bash
# roofline-cuda profile on tests/apps/torch_ops.py (NVTX range ops) with the L2 left empty after
# cache control and with it left full of the flush buffer's clean lines, twice each, then ncu's
# one-pass DRAM collection. Needs revision 67cebaa, whose injector read ROOFKIT_LAB_L2_EVICT_ONLY
# (removed after it); validation/data/l2-state-experiments-h100.json has the result.
# Usage (GPU machine, at 67cebaa): OUT=dir bash validation/lab/l2-flush-modes.sh
set -uo pipefail
source scripts/cuda-env.sh
cmake -S . -B build/gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CUDA_COMPILER=$CUDA_HOME/bin/nvcc >/dev/null 2>&1
cmake --build build/gpu -j 16 --target roofline-cuda roofkit_inject >/dev/null 2>&1 || echo BUILD FAILED
RC=build/gpu/tools/roofline-cuda
python3 tests/apps/torch_ops.py >/dev/null 2>&1
for v in invalidate evict invalidate evict; do
  if [ $v = evict ]; then export ROOFKIT_LAB_L2_EVICT_ONLY=1; else unset ROOFKIT_LAB_L2_EVICT_ONLY; fi
  $RC profile --nvtx ops -o $OUT/$v.json -- python3 tests/apps/torch_ops.py >/dev/null 2>&1
  python3 - $OUT/$v.json $v <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for l in d["profile"]["launches"]:
    c = l["counters"]
    print(sys.argv[2], l["name"][:40], round(c["dram__bytes_read.sum"]/1e6, 3), round(c["dram__bytes_write.sum"]/1e6, 3))
PY
done
unset ROOFKIT_LAB_L2_EVICT_ONLY
ncu --cache-control all --clock-control none --nvtx --nvtx-include ops/ --csv --print-units base --metrics dram__bytes_read.sum,dram__bytes_write.sum python3 tests/apps/torch_ops.py 2>/dev/null | grep -E '^"[0-9]' | awk -F'","' '{print "ncu", substr($5,1,40), $(NF-2), $NF}'

#!/usr/bin/env bash
# What CUPTI's checkpoint of device memory costs a profiled launch of roofline-cuda profile, by
# how much memory the application holds: tests/apps/big_memory.cu holding 0.7% to 20% of the free
# device memory (0.5 to 16 GB), its in-place kernel's two launches profiled; the save, the
# restores before passes 1-3 and the final restore, per launch, from the profiler's time
# breakdown. Then a PyTorch process with a tiny tensor, and with 2 GiB more in one or 100
# allocations. Results under $OUT/checkpoint-cost.
# Usage: OUT=dir [BUILD=build/gpu] validation/lab/checkpoint-cost.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-build/gpu}"
OUT="${OUT:-out}/checkpoint-cost"
mkdir -p "$OUT"
source validation/lab/build-targets.sh roofline-cuda roofkit_inject roofkit_app_big_memory
PER_LAUNCH='
import json, sys
t = json.loads(sys.stdin.read())
n = t["calls"] - 1  # the session warm-up call profiles no launch
print("  per launch (ms): save %.2f, restores before passes %.2f, final restore %.2f, free %.2f" % tuple(
    t[k] * 1e3 / n for k in ("checkpoint_save_s", "before_s", "checkpoint_restore_s", "checkpoint_free_s")))'
APP="$(find "$BUILD" -name roofkit_app_big_memory -type f | head -1)"
for f in 0.007 0.02 0.05 0.1 0.2; do
  "$BUILD/tools/roofline-cuda" profile --kernel add_one_in_place --records "$OUT/records-$f.jsonl" \
    -o "$OUT/run-$f.json" -- "$APP" $f >"$OUT/out-$f.txt" 2>&1
  echo "checkpoint-cost: fraction $f rc=$? $(grep -o 'big_memory: [^|]*held' "$OUT/out-$f.txt")"
  grep '"profiler_time"' "$OUT/records-$f.jsonl" | python3 -c "$PER_LAUNCH"
done
# PyTorch: a tiny tensor doubled, then the same after 2 GiB more allocated as one tensor and as
# 100 tensors (PyTorch's allocator gives each its own segment): what the checkpoint costs in a
# PyTorch process, by bytes and by allocations, against the plain CUDA application above.
for pad in "0 1" "2048 1" "2048 100"; do
  set -- $pad
  tag="$1x$2"
  "$BUILD/tools/roofline-cuda" profile --records "$OUT/records-torch-$tag.jsonl" \
    -o "$OUT/run-torch-$tag.json" -- python3 -c "
import torch
pad = [torch.empty(($1 << 20) // $2, dtype=torch.uint8, device='cuda') for _ in range($2)]
x = torch.ones(1 << 20, device='cuda')
for _ in range(4):
    x = x * 2
torch.cuda.synchronize()
print('torch tiny: reserved', torch.cuda.memory_reserved() >> 20, 'MiB in',
      torch.cuda.memory_stats()['segment.all.current'], 'segments, free/total',
      [b >> 20 for b in torch.cuda.mem_get_info()])
" >"$OUT/out-torch-$tag.txt" 2>&1
  echo "checkpoint-cost: torch, $1 MiB more in $2 rc=$? $(grep 'torch tiny' "$OUT/out-torch-$tag.txt")"
  grep '"profiler_time"' "$OUT/records-torch-$tag.jsonl" | python3 -c "$PER_LAUNCH"
done
# The PyTorch script of the walltime comparison, its device memory read at its end, plain and
# under roofline-cuda profile (whose checkpoint saves whatever the process holds then).
python3 validation/lab/torch_ops_memory.py 2>&1 | grep "torch_ops memory" | sed 's/^/checkpoint-cost: plain: /'
"$BUILD/tools/roofline-cuda" profile --records "$OUT/records-torch-ops.jsonl" \
  -o "$OUT/run-torch-ops.json" -- python3 validation/lab/torch_ops_memory.py >"$OUT/out-torch-ops.txt" 2>&1
echo "checkpoint-cost: torch_ops under profile rc=$? $(grep 'torch_ops memory' "$OUT/out-torch-ops.txt")"
grep '"profiler_time"' "$OUT/records-torch-ops.jsonl" | python3 -c "$PER_LAUNCH"
# What else a PyTorch process's checkpoint copies: the tiny loop (NVTX range "tiny", the only
# launches profiled) after 2 GiB allocated, alone, after a cuBLAS matmul, after a cuDNN
# convolution, and after both (the libraries' modules loaded, their workspaces allocated).
for libs in none cublas cudnn both; do
  "$BUILD/tools/roofline-cuda" profile --nvtx tiny --records "$OUT/records-libs-$libs.jsonl" \
    -o "$OUT/run-libs-$libs.json" -- python3 -c "
import torch
pad = torch.empty(2048 << 20, dtype=torch.uint8, device='cuda')
if '$libs' in ('cublas', 'both'):
    a = torch.randn(4096, 4096, device='cuda', dtype=torch.bfloat16)
    (a @ a).sum().item()
if '$libs' in ('cudnn', 'both'):
    conv = torch.nn.Conv2d(64, 128, 3, padding=1, device='cuda')
    conv(torch.randn(32, 64, 56, 56, device='cuda')).sum().item()
x = torch.ones(1 << 20, device='cuda')
torch.cuda.synchronize()
torch.cuda.nvtx.range_push('tiny')
for _ in range(4):
    x = x * 2
torch.cuda.nvtx.range_pop()
torch.cuda.synchronize()
free, total = torch.cuda.mem_get_info()
print('torch libs: reserved', torch.cuda.memory_reserved() >> 20, 'MiB; device used',
      (total - free) >> 20, 'MiB')
" >"$OUT/out-libs-$libs.txt" 2>&1
  echo "checkpoint-cost: torch after $libs rc=$? $(grep 'torch libs' "$OUT/out-libs-$libs.txt")"
  grep '"profiler_time"' "$OUT/records-libs-$libs.jsonl" | python3 -c "$PER_LAUNCH"
done

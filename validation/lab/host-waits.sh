#!/usr/bin/env bash
# Where the host time of a profiled launch's passes goes: roofkit-profiler-cost with one auto
# range per launch (as roofline-cuda profile), for the SASS-only, DRAM-only, HGMMA-FP16-only and
# the bench's set, (1) with the device's scheduling flag spin, yield or blocking sync, and (2)
# with syscall_time.so preloaded, which times every ioctl, sleep, yield, poll and wait;
# 1 and 41 launches per set, so the difference is 40 launches' worth. Then the PyTorch script
# under roofline-cuda profile with the preload, and the memory PyTorch holds at its end (what
# every checkpoint saves and restores). Results under $OUT/host-waits.
# Usage: OUT=dir [BUILD=build/gpu] validation/lab/host-waits.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-build/gpu}"
OUT="${OUT:-out}/host-waits"
mkdir -p "$OUT"
source validation/lab/build-targets.sh roofkit-profiler-cost roofline-cuda roofkit_inject
gcc -O2 -shared -fPIC -o "$BUILD/syscall_time.so" validation/lab/syscall_time.c -ldl -lpthread ||
  exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$OUT/device.txt" 2>&1
nvidia-smi -q | grep -i "GSP Firmware" >>"$OUT/device.txt" 2>&1
PC="$BUILD/validation/programs/roofkit-profiler-cost"
SASS=smsp__sass_inst_executed_op_global_ld.sum
DRAM=dram__bytes_read.sum
HGMMA=sm__ops_path_tensor_op_hgmma_src_fp16_sparsity_off.sum
for sched in default spin yield blocking; do
  if [ "$sched" = default ]; then unset ROOFKIT_LAB_SCHED; else export ROOFKIT_LAB_SCHED=$sched; fi
  "$PC" 20 launch >"$OUT/sched-$sched.jsonl" 2>"$OUT/sched-$sched.err"
  "$PC" 20 launch $SASS $DRAM $HGMMA >>"$OUT/sched-$sched.jsonl" 2>>"$OUT/sched-$sched.err"
  echo "host-waits: sched $sched rc=$?"
done
unset ROOFKIT_LAB_SCHED
for set in sass dram hgmma bench; do
  case $set in sass) M=$SASS ;; dram) M=$DRAM ;; hgmma) M=$HGMMA ;; bench) M="" ;; esac
  for n in 1 41; do
    SYSCALL_TIME_OUT="$OUT/syscalls-$set-$n.jsonl" LD_PRELOAD="$PWD/$BUILD/syscall_time.so" \
      "$PC" $n launch $M >"$OUT/preload-$set-$n.jsonl" 2>"$OUT/preload-$set-$n.err"
    echo "host-waits: preload $set $n rc=$?"
  done
done
python3 tests/apps/torch_ops.py >/dev/null 2>&1
for run in plain preload; do
  pre=()
  [ $run = preload ] && pre=(env SYSCALL_TIME_OUT="$OUT/syscalls-torch.jsonl"
    LD_PRELOAD="$PWD/$BUILD/syscall_time.so")
  a=$(date +%s.%N)
  "${pre[@]}" "$BUILD/tools/roofline-cuda" profile --records "$OUT/torch-$run.jsonl" \
    -o "$OUT/torch-$run.json" -- python3 tests/apps/torch_ops.py >"$OUT/torch-$run.out" 2>&1
  echo "host-waits: torch $run rc=$? wall $(awk -v a="$a" -v b="$(date +%s.%N)" 'BEGIN{print b-a}')"
done
python3 validation/lab/torch_ops_memory.py 2>&1 | grep "torch_ops memory" >"$OUT/torch-memory.json"
cat "$OUT/torch-memory.json"

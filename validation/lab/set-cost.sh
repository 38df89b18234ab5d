#!/usr/bin/env bash
# What leaving counters out of the bench's set would save per profiled launch, and the wall time
# of roofline-cuda profile on every launch of the PyTorch script against ncu --set roofline.
# Usage (GPU machine): OUT=dir validation/lab/set-cost.sh [BUILD_DIR]
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD="${1:-build/gpu}"
OUT="$(mkdir -p "${OUT:-out/set-cost}" && cd "${OUT:-out/set-cost}" && pwd)"
source validation/lab/build-targets.sh roofkit-profiler-cost roofline-cuda roofkit_inject
T=lts__t_bytes.sum
LC=lts__cycles_elapsed.avg.per_second
L1T=l1tex__t_bytes.sum
TEN3=sm__ops_path_tensor_op_hgmma_src_fp16_sparsity_off.sum,sm__ops_path_tensor_src_fp8_sparsity_off.sum,sm__ops_path_tensor_op_igmma_src_int8_sparsity_off.sum
X2=lts__lts2xbar_cycles_active.sum
DRAM=dram__bytes_read.sum,dram__bytes_write.sum,dram__cycles_elapsed.avg.per_second
SMC=sm__cycles_elapsed.avg,sm__cycles_elapsed.avg.per_second
"$BUILD/validation/programs/roofkit-profiler-cost" 10 without "$T" "$T,$LC" "$T,$LC,$L1T" "$TEN3" \
  "$T,$TEN3" >"$OUT/set-cost.jsonl" 2>"$OUT/set-cost.err"
echo "set-cost rc=$?"
"$BUILD/validation/programs/roofkit-profiler-cost" 10 order "$X2,$T" "$TEN3,$X2,$T,$LC,$DRAM,$SMC" \
  "$X2,$T,$LC,$DRAM,$SMC" >>"$OUT/set-cost.jsonl" 2>>"$OUT/set-cost.err"
echo "set-cost order rc=$?"
[ -z "${COST_ONLY:-}" ] || { python3 validation/lab/set_cost_table.py "$OUT/set-cost.jsonl"; exit 0; }
TORCH=(python3 tests/apps/torch_ops.py)
"${TORCH[@]}" >/dev/null 2>&1
wall() { # name, command...
  local name=$1; shift
  local a; a=$(date +%s.%N)
  "$@" >"$OUT/$name.log" 2>&1
  echo "$name rc=$? wall $(awk -v a="$a" -v b="$(date +%s.%N)" 'BEGIN{printf "%.2f", b-a}')"
}
wall plain "${TORCH[@]}"
wall roofkit_one "$BUILD/tools/roofline-cuda" profile --launch-count 1 -o "$OUT/one.json" -- "${TORCH[@]}"
wall roofkit_all "$BUILD/tools/roofline-cuda" profile --records "$OUT/all.jsonl" -o "$OUT/all.json" -- "${TORCH[@]}"
wall ncu_all ncu --set roofline --cache-control all --clock-control none "${TORCH[@]}"
grep profiler_time "$OUT/all.jsonl"
python3 validation/lab/set_cost_table.py "$OUT/set-cost.jsonl"

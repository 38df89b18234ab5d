#!/usr/bin/env bash
# What the cache control costs a profiled launch, by where the flush runs: in the profiled
# context with the invalidating sweep (the default), the read sweep alone, or in a context of
# the profiler's own. Needs revision a41aef0, whose injector read ROOFKIT_LAB_FLUSH_CONTEXT=1
# and ROOFKIT_LAB_EVICT_ONLY=1 (removed after it); validation/data/profile-flush-modes-h100.json
# has the result. roofline-cuda profile on every launch of tests/apps/torch_ops.py, the modes
# interleaved, twice each; then 100 launches of many_kernels per mode; then the profile_app GPU
# tests with the flush in its own context. Writes $OUT/flush-context.json and logs.
# Usage (GPU machine): OUT=dir validation/lab/flush-context.sh
set -uo pipefail
ulimit -c 0
cd "$(dirname "$0")/../.."
source scripts/cuda-env.sh
B=build/gpu
OUT="$(mkdir -p "${OUT:-out/flush-context}" && cd "${OUT:-out/flush-context}" && pwd)"
cmake -S . -B $B -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCMAKE_CUDA_COMPILER="$CUDA_HOME/bin/nvcc" >"$OUT/build.log" 2>&1
cmake --build $B -j 16 >>"$OUT/build.log" 2>&1 || { echo BUILD FAILED; tail -30 "$OUT/build.log"; exit 1; }
RC=$B/tools/roofline-cuda
mode_env() { # mode -> env assignments
  case $1 in
  default) echo "" ;;
  evict) echo "ROOFKIT_LAB_EVICT_ONLY=1" ;;
  context) echo "ROOFKIT_LAB_FLUSH_CONTEXT=1" ;;
  context-evict) echo "ROOFKIT_LAB_FLUSH_CONTEXT=1 ROOFKIT_LAB_EVICT_ONLY=1" ;;
  esac
}
python3 tests/apps/torch_ops.py >/dev/null 2>&1
for rep in 1 2; do
  for m in default context evict context-evict; do
    a=$(date +%s.%N)
    env $(mode_env $m) $RC profile --records "$OUT/torch-$m-$rep.jsonl" -o "$OUT/torch-$m-$rep.json" \
      -- python3 tests/apps/torch_ops.py >"$OUT/torch-$m-$rep.out" 2>"$OUT/torch-$m-$rep.err"
    echo "rc=$?" >>"$OUT/torch-$m-$rep.err"
    b=$(date +%s.%N)
    echo "$m $rep $(awk -v a=$a -v b=$b 'BEGIN{printf "%.3f", b-a}')" >>"$OUT/wall.txt"
    tail -1 "$OUT/torch-$m-$rep.err"
  done
done
for m in default context evict context-evict; do
  a=$(date +%s.%N)
  env $(mode_env $m) $RC profile --launch-count 100 --records "$OUT/many-$m.jsonl" -o "$OUT/many-$m.json" \
    -- $B/tests/apps/roofkit_app_many_kernels 10000 >/dev/null 2>"$OUT/many-$m.err"
  b=$(date +%s.%N)
  echo "many-$m 1 $(awk -v a=$a -v b=$b 'BEGIN{printf "%.3f", b-a}')" >>"$OUT/wall.txt"
done
(cd $B && ROOFKIT_LAB_FLUSH_CONTEXT=1 ctest -L gpu -R "profile_app|profiler" --output-junit "$OUT/gpu-tests-context.xml" \
  >"$OUT/gpu-tests-context.log" 2>&1; tail -5 "$OUT/gpu-tests-context.log")
python3 validation/lab/flush_context_json.py "$OUT" >"$OUT/flush-context.json"
cat "$OUT/wall.txt"

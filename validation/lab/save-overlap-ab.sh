#!/usr/bin/env bash
# A/B on one machine: roofline-cuda profile on every launch of the PyTorch script with the
# injection library before the checkpoint save overlapped the first pass's start (a source tree
# in ab-old/, e.g. `git archive 263fabf | tar -x -C ab-old`) and after it (this tree), in turn,
# ROUNDS times (default 3): wall time and the profiler's time breakdown of each run, and the
# script's output (its results must not change). Results under $OUT/save-overlap-ab.
# Usage: OUT=dir [ROUNDS=n] validation/lab/save-overlap-ab.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-out}/save-overlap-ab"
mkdir -p "$OUT"
source scripts/cuda-env.sh
[ -d ab-old ] || { echo "save-overlap-ab: no ab-old/ source tree"; exit 1; }
build() {
  cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DCMAKE_CUDA_COMPILER="$CUDA_HOME/bin/nvcc" >"$OUT/$3-configure.log" 2>&1 &&
    cmake --build "$2" -j 8 --target roofline-cuda roofkit_inject >"$OUT/$3-build.log" 2>&1 ||
    echo "save-overlap-ab: build of $1 failed"
}
build ab-old /tmp/ab-old old & build . /tmp/ab-new new & wait
python3 tests/apps/torch_ops.py >/dev/null 2>&1
for k in $(seq 1 "${ROUNDS:-3}"); do
  for v in old new; do
    a=$(date +%s.%N)
    /tmp/ab-$v/tools/roofline-cuda profile --records "$OUT/$v-$k.jsonl" -o "$OUT/$v-$k.json" -- \
      python3 tests/apps/torch_ops.py >"$OUT/$v-$k.out" 2>&1
    echo "save-overlap-ab: $v round $k rc=$? wall $(awk -v a="$a" -v b="$(date +%s.%N)" \
      'BEGIN{printf "%.3f", b-a}') s $(grep -o 'bf16 rel err [^|]*' "$OUT/$v-$k.out")"
    grep '"profiler_time"' "$OUT/$v-$k.jsonl" | python3 -c '
import json, sys
t = json.loads(sys.stdin.read())
print("   ", {k: round(v, 3) for k, v in t.items() if k.endswith("_s") and not k.startswith(("start_pass", "stop_pass"))})'
  done
done

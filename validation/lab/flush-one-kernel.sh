#!/usr/bin/env bash
# The cache control's flush as one cooperative kernel (read sweep, grid barrier, discard) against
# the two launches before it (ROOFKIT_LAB_FLUSH_TWO_KERNELS=1, a lab knob of l2_flusher): the
# flush alone (flush_time.cu), then roofline-cuda profile on 100 launches of many_kernels and on
# every launch of tests/apps/torch_ops.py, the two interleaved, with ncu --set roofline beside
# the torch runs; then the timing, profiler and profile_app GPU tests with the default (one
# kernel). Writes $OUT/wall.txt, $OUT/flush-*.json, the runs' records and logs.
# Usage (GPU machine): OUT=dir validation/lab/flush-one-kernel.sh
set -uo pipefail
ulimit -c 0
cd "$(dirname "$0")/../.."
source scripts/cuda-env.sh
B=build/gpu
OUT="$(mkdir -p "${OUT:-out/flush-one-kernel}" && cd "${OUT:-out/flush-one-kernel}" && pwd)"
cmake -S . -B $B -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCMAKE_CUDA_COMPILER="$CUDA_HOME/bin/nvcc" >"$OUT/build.log" 2>&1
cmake --build $B -j 16 >>"$OUT/build.log" 2>&1 || { echo BUILD FAILED; tail -30 "$OUT/build.log"; exit 1; }
nvcc -O2 -arch=sm_90 -std=c++17 -Ilib/include -o "$OUT/flush_time" validation/lab/flush_time.cu \
  $B/lib/libroofkit.a -lcupti -lnvperf_host -ldl -lpthread >>"$OUT/build.log" 2>&1 ||
  { echo FLUSH_TIME BUILD FAILED; tail -20 "$OUT/build.log"; }
cuobjdump -res-usage $B/lib/libroofkit.a 2>/dev/null | grep -A1 "sweep" >"$OUT/res-usage.txt"
RC=$B/tools/roofline-cuda
mode_env() { [ "$1" = two ] && echo "ROOFKIT_LAB_FLUSH_TWO_KERNELS=1"; }
for m in one two one two; do env $(mode_env $m) "$OUT/flush_time" >>"$OUT/flush-$m.json"; done
cat "$OUT"/flush-*.json
wall() { # label, command...
  local label=$1; shift
  local a b
  a=$(date +%s.%N); "$@"; echo "rc=$?" >>"$OUT/$label.err"; b=$(date +%s.%N)
  echo "$label $(awk -v a=$a -v b=$b 'BEGIN{printf "%.3f", b-a}')" | tee -a "$OUT/wall.txt"
}
python3 tests/apps/torch_ops.py >/dev/null 2>&1
for rep in 1 2; do
  for m in one two; do
    wall "many-$m-$rep" env $(mode_env $m) $RC profile --launch-count 100 --records "$OUT/many-$m-$rep.jsonl" \
      -o "$OUT/many-$m-$rep.json" -- $B/tests/apps/roofkit_app_many_kernels 10000 >/dev/null 2>"$OUT/many-$m-$rep.err"
  done
done
for rep in 1 2; do
  wall "plain-$rep" python3 tests/apps/torch_ops.py >/dev/null 2>"$OUT/plain-$rep.err"
  for m in one two; do
    wall "torch-$m-$rep" env $(mode_env $m) $RC profile --records "$OUT/torch-$m-$rep.jsonl" -o "$OUT/torch-$m-$rep.json" \
      -- python3 tests/apps/torch_ops.py >/dev/null 2>"$OUT/torch-$m-$rep.err"
  done
  wall "ncu-$rep" ncu --set roofline --cache-control all --clock-control none python3 tests/apps/torch_ops.py \
    >"$OUT/ncu-$rep.out" 2>"$OUT/ncu-$rep.err"
done
(cd $B && ctest -L gpu -R "timing|profiler|profile_app|flush" --output-junit "$OUT/gpu-tests.xml" \
  >"$OUT/gpu-tests.log" 2>&1; tail -5 "$OUT/gpu-tests.log")
python3 - "$OUT" <<'PY'
import glob, json, os, sys
out = sys.argv[1]
for f in sorted(glob.glob(os.path.join(out, "*.jsonl"))):
    t, n = {}, 0
    for line in open(f):
        j = json.loads(line)
        n += j.get("type") == "launch"
        if j.get("type") == "profiler_time":
            t = j
    print(os.path.basename(f), n, "flush_s %.3f body_s %.3f passes_s %.3f" % (
        t.get("flush_s", 0), t.get("body_s", 0), t.get("passes_s", 0)))
PY

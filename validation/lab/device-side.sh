#!/usr/bin/env bash
# tests/apps/device_side.cu (device printf, the device heap, dynamic parallelism, module globals,
# a CUDA array written through a surface, and a cudaProfilerStart/Stop region) run plain, under roofline-cuda profile and under ncu, one part
# at a time: does the application's stdout stay as it is, are its results right, and which
# kernels are profiled?
# Usage (GPU machine, through the run tool): OUT=dir bash validation/lab/device-side.sh
set -u
cd "$(dirname "$0")/../.."
OUT="${OUT:-out/device-side}"; mkdir -p "$OUT"
BUILD=build/gpu
source validation/lab/build-targets.sh roofline-cuda roofkit_inject roofkit_app_device_side
A=$BUILD/tests/apps/roofkit_app_device_side
RC=$BUILD/tools/roofline-cuda
M=sm__sass_thread_inst_executed_op_fadd_pred_on.sum,dram__bytes_read.sum,dram__bytes_write.sum
hello() { grep -c "hello from block" "$1"; }
summary() {
  python3 - "$1" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["profile"]
print("   profiled:", " ".join(l["name"].split("(")[0] for l in p["launches"]),
      "| total", p["total_launches"], "| not profiled:",
      [(s["name"].split("(")[0], s["reason"]) for s in p["not_profiled"]])
PY
}
# case NAME ENV ARGS...: the application plain, under profile (and its options in PROFILE_OPTS),
# and under ncu with cache control all
case_() {
  local name=$1 env=$2; shift 2
  env $env $A "$@" >"$OUT/$name.plain.out" 2>"$OUT/$name.plain.err"
  echo "[$name] plain rc=$? hello $(hello "$OUT/$name.plain.out"): $(tail -1 "$OUT/$name.plain.out")"
  env $env $RC profile ${PROFILE_OPTS:-} -o "$OUT/$name.json" -- $A "$@" \
    >"$OUT/$name.profile.out" 2>"$OUT/$name.profile.err"
  echo "  profile rc=$? hello $(hello "$OUT/$name.profile.out"): $(tail -1 "$OUT/$name.profile.out")"
  grep "roofkit-inject" "$OUT/$name.profile.err" | head -3 | sed 's/^/   /'
  [ -f "$OUT/$name.json" ] && summary "$OUT/$name.json"
  if [ -n "${NCU:-}" ]; then
    env $env ncu ${NCU_OPTS:-} --metrics $M --cache-control all --csv --page raw $A "$@" \
      >"$OUT/$name.ncu.out" 2>"$OUT/$name.ncu.err"
    echo "  ncu rc=$? hello $(hello "$OUT/$name.ncu.out"): $(grep -h 'device_side:' "$OUT/$name.ncu.out" | tail -1)"
  fi
}
NCU=1 case_ region "" region
NCU=1 case_ printf "" printf
NCU=1 case_ heap "" heap
case_ heap-eager "CUDA_MODULE_LOADING=EAGER" heap
NCU=1 case_ heap-twice "" heap-twice
PROFILE_OPTS="--kernel heap_user --launch-skip 1" case_ heap-second "" heap-twice
NCU=1 case_ cdp "" cdp
NCU=1 case_ globals "" globals
NCU=1 case_ array "" array
NCU=1 case_ reset-midway "" region reset-midway
NCU=1 case_ all ""
case_ all-eager "CUDA_MODULE_LOADING=EAGER"
PROFILE_OPTS="--profile-from-start off" NCU=1 NCU_OPTS="--profile-from-start off" case_ all-from-start-off ""

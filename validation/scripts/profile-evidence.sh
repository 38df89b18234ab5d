#!/usr/bin/env bash
# Evidence for `roofline-cuda profile` on the GPU machine (issue 13), in one session. Builds the
# tool, the injection library and the test applications, then runs these stages:
#   fixture  ncu --set roofline --csv --page raw on tests/apps/torch_ops.py, NVTX range "ops"
#            (the importer's test fixture; ncu's wall time)
#   torch    roofline-cuda profile --nvtx ops on the same script (run, records, chart, wall
#            time), the script alone, then ncu with exactly our metric names and the same cache
#            and clock control, for the launch-by-launch comparison (validation/scripts/profile-compare.py);
#            ncu also profiles the script's NVTX range "primer" first, which takes the DRAM
#            writes ncu adds to its first profiled launch
#   torchflush the same script with TORCH_OPS_FLUSH=1 (it empties the L2 itself before each op),
#            under profile and ncu with our metric names, for the same comparison
#   features tests/apps/app_features.cu: threads, streams, NVTX, capture, graph; then a crash
#   many     tests/apps/many_kernels.cu, 10,000 launches: alone, --launch-count 100, no limit
#   bench    the bundled kernels' executable (roofline-cuda bench --no-counters: kernels only)
#            under profile, then under ncu with our metric names
#   cupti    tests/apps/torch_own_cupti.py: the application loads its own CUPTI (torch.profiler)
#   kinds    tests/apps/launch_kinds.cu (clusters, opt-in shared memory, cooperative, packed
#            driver-API arguments, an NVRTC module) under profile, then under ncu with our
#            metric names; ncu also profiles the application's primer (two sums), whose first
#            launch takes the DRAM writes ncu adds to its first profiled launch
#   compiled tests/apps/torch_compiled.py: torch.compile's Triton kernels (NVTX range "compiled")
#            under profile, then under ncu with our metric names; then with mode
#            "reduce-overhead", whose CUDA graph kernels must be listed as not profiled
#   procs    tests/apps/two_processes.cu: two CUDA processes at once, under profile and ncu; then
#            its parent alone (the same kernel in one process), under both
#   bigmem   tests/apps/big_memory.cu holding 80% and 99.8% of the free device memory when its
#            kernel is profiled (--kernel add_one_in_place --launch-count 1): the checkpoint
#            goes to host memory; wall time and resident memory
# Every stage appends to results/steps.log; the results are packed into $PACK (default
# $OUT/profile-evidence.tgz) after each stage, so a stage cut short loses nothing before it.
# Usage: OUT=dir [PACK=file.tgz] validation/scripts/profile-evidence.sh [stages...]
# On the device machine through the run tool (about 6-7 minutes with the build; bigmem needs
# about 85 GB of host memory):
#   cd <checkout> && OUT=/tmp/ev PACK=$OUT/profile-evidence.tgz validation/scripts/profile-evidence.sh
# then here: tar xzf profile-evidence.tgz && validation/scripts/profile-evidence-collect.sh results
set -uo pipefail
ulimit -c 0 # a crashing CUDA process must not spend minutes writing a core file
cd "$(dirname "$0")/../.."
source scripts/cuda-env.sh
OUT="$(mkdir -p "${OUT:-out/profile-evidence}" && cd "${OUT:-out/profile-evidence}" && pwd)"
PACK="${PACK:-$OUT/profile-evidence.tgz}"
R="$OUT/results"
mkdir -p "$R"
BUILD=build/gpu
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
step() { echo "evidence: $*" | tee -a "$R/steps.log"; }
pack() { tar czf "$PACK" -C "$OUT" results; }
stages="${*:-fixture torch torchflush features many bench cupti kinds compiled procs bigmem}"
NCU_COMMON=(--cache-control all --clock-control none --csv --page raw)
TORCH=(python3 tests/apps/torch_ops.py)
TIMEFMT="%e s wall, %M KiB max RSS"

step "device: $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader)"
step "torch: $(python3 -c 'import torch; print(torch.__version__, "cuda", torch.version.cuda)' 2>&1 | tail -1)"
step "ncu: $(ncu --version | tail -1)"

# Build beside the first ncu run (which needs none of it), leaving 4 cores to ncu and Python.
# build/gpu is the folder scripts/gpu-check.sh builds: after it, this takes seconds.
t0=$(now)
RC="$BUILD/tools/roofline-cuda"
APPS="$BUILD/tests/apps"
( cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DCMAKE_CUDA_COMPILER="$CUDA_HOME/bin/nvcc" >"$R/configure.log" 2>&1 &&
  cmake --build "$BUILD" -j 12 --target roofline-cuda roofkit_inject roofkit_app_many_kernels \
    roofkit_app_features roofkit_app_launch_kinds roofkit_app_big_memory roofkit_app_two_processes >"$R/build.log" 2>&1 ) &
build_pid=$!

if [[ " $stages " == *" fixture "* ]]; then
  t1=$(now)
  timeout 120 ncu --set roofline "${NCU_COMMON[@]}" --nvtx --nvtx-include "ops/" "${TORCH[@]}" \
    >"$R/torch-ops-roofline-raw.csv" 2>"$R/ncu-roofline.err"
  step "fixture: ncu --set roofline --nvtx-include ops/ torch_ops.py rc=$? wall $(since "$t1") s (build running beside it)"
  pack
fi
wait $build_pid
rc=$?
step "build rc=$rc in $(since "$t0") s"
if [ $rc -ne 0 ]; then grep -B2 -A20 -m3 "error" "$R/build.log" | head -60; pack; exit 1; fi

metric_names() { # the CUPTI names of the counters in a record log
  python3 validation/scripts/ncu_csv.py metrics "$1" 2>/dev/null
}


# ncu with the counter names of NAME's run and the same cache and clock control, then with the
# two DRAM metrics alone: the two exports validation/scripts/profile-compare.py compares the run with. With
# the DRAM metrics alone ncu takes one pass, so its kernel replay restores no memory before them
# (the reference for DRAM bytes: validation/scripts/profile-compare.py --dram).
compare_with_ncu() { # name, time limit (s), ncu filter options and command...
  local name=$1 limit=$2 metrics t1
  shift 2
  metrics=$(metric_names "$R/$name.records.jsonl")
  if [ -z "$metrics" ]; then
    step "$name: nothing profiled, no comparison with ncu"
    return
  fi
  t1=$(now)
  timeout "$limit" ncu --metrics "$metrics" --print-units base "${NCU_COMMON[@]}" "$@" \
    >"$R/$name-ncu-same-metrics.csv" 2>"$R/$name-ncu-same-metrics.err"
  step "$name: ncu with our metric names rc=$? wall $(since "$t1") s"
  t1=$(now)
  timeout "$limit" ncu --metrics dram__bytes_read.sum,dram__bytes_write.sum --print-units base \
    "${NCU_COMMON[@]}" "$@" >"$R/$name-ncu-dram.csv" 2>"$R/$name-ncu-dram.err"
  step "$name: ncu with the DRAM metrics alone rc=$? wall $(since "$t1") s"
}

profile() { # name, time limit (s), profile options..., -- command...
  local name=$1 limit=$2; shift 2
  local t1
  t1=$(now)
  /usr/bin/time -f "$TIMEFMT" -o "$R/$name.time" timeout "$limit" "$RC" profile --sample all \
    --records "$R/$name.records.jsonl" -o "$R/$name.json" "$@" >"$R/$name.out" 2>"$R/$name.err"
  local rc=$?
  step "$name: profile rc=$rc wall $(since "$t1") s ($(tail -1 "$R/$name.time")); app: $(tail -1 "$R/$name.out")"
  grep "roofline-cuda profile:\|roofkit-inject:" "$R/$name.err" | head -8 | sed 's/^/    /' | tee -a "$R/steps.log"
}

if [[ " $stages " == *" torch "* ]]; then
  profile torch-ops 80 --nvtx ops --plot "$R/torch-ops.svg" -- "${TORCH[@]}"
  t1=$(now)
  /usr/bin/time -f "$TIMEFMT" -o "$R/torch-plain.time" "${TORCH[@]}" >"$R/torch-plain.out" 2>&1
  step "torch: script alone rc=$? wall $(since "$t1") s"
  compare_with_ncu torch-ops 60 --nvtx --nvtx-include "primer/" --nvtx-include "ops/" "${TORCH[@]}"
  pack
fi

if [[ " $stages " == *" torchflush "* ]]; then
  export TORCH_OPS_FLUSH=1
  profile torch-ops-flushed 80 --nvtx ops -- "${TORCH[@]}"
  compare_with_ncu torch-ops-flushed 60 --nvtx --nvtx-include "primer/" --nvtx-include "ops/" \
    "${TORCH[@]}"
  unset TORCH_OPS_FLUSH
  pack
fi

if [[ " $stages " == *" features "* ]]; then
  profile features 30 -- "$APPS/roofkit_app_features"
  profile features-nvtx 30 --nvtx scale-range -- "$APPS/roofkit_app_features"
  profile features-crash 30 --launch-count 4 -- "$APPS/roofkit_app_features" crash
  pack
fi

if [[ " $stages " == *" many "* ]]; then
  t1=$(now)
  /usr/bin/time -f "$TIMEFMT" -o "$R/many-plain.time" "$APPS/roofkit_app_many_kernels" 10000 \
    >"$R/many-plain.out" 2>&1
  step "many plain: rc=$? wall $(since "$t1") s ($(cat "$R/many-plain.time")): $(tail -1 "$R/many-plain.out")"
  profile many-count100 40 --launch-count 100 -- "$APPS/roofkit_app_many_kernels" 10000
  profile many-all1000 110 -- "$APPS/roofkit_app_many_kernels" 1000
  pack
fi

if [[ " $stages " == *" bench "* ]]; then
  regex='coalesced_kernel|strided_kernel|gemm_tiled_kernel|shared_kernel'
  # ncu also profiles the flushes of the bench's cold timing: the first one, launched before any
  # kernel, is its first profiled launch (a primer: tests/apps/torch_ops.py says why). One
  # kernel where the device has cooperative launch, else a read sweep and a discard.
  primer='l2_read_discard_sweep|l2_read_sweep'
  BENCH=("$RC" bench -q --no-counters --no-ceilings --reps 1 --warmup 0
         --kernel '^(global/coalesced|global/stride-32|gemm/tiled-32|transpose/padded)$')
  profile bench 50 --kernel "$regex" -- "${BENCH[@]}"
  compare_with_ncu bench 50 --kernel-name "regex:$regex|$primer" "${BENCH[@]}"
  pack
fi

if [[ " $stages " == *" cupti "* ]]; then
  profile own-cupti 50 --launch-count 5 -- python3 tests/apps/torch_own_cupti.py
  tail -5 "$R/own-cupti.err" | sed 's/^/    /' | tee -a "$R/steps.log"
  pack
fi
if [[ " $stages " == *" kinds "* ]]; then
  KINDS=("$APPS/roofkit_app_launch_kinds")
  profile launch-kinds 40 --kernel '^(cluster|rotate|coop|packed|jit)' -- "${KINDS[@]}"
  compare_with_ncu launch-kinds 60 "${KINDS[@]}"
  pack
fi
if [[ " $stages " == *" compiled "* ]]; then
  COMPILED=(python3 tests/apps/torch_compiled.py)
  profile torch-compiled 150 --nvtx compiled -- "${COMPILED[@]}"
  t1=$(now)
  /usr/bin/time -f "$TIMEFMT" -o "$R/torch-compiled-plain.time" "${COMPILED[@]}" \
    >"$R/torch-compiled-plain.out" 2>&1
  step "compiled: script alone rc=$? wall $(since "$t1") s: $(tail -1 "$R/torch-compiled-plain.out")"
  compare_with_ncu torch-compiled 150 --nvtx --nvtx-include "primer/" \
    --nvtx-include "compiled/" "${COMPILED[@]}"
  profile torch-graphed 150 --nvtx graphed -- "${COMPILED[@]}" graphs
  grep -c '"not_profiled"' "$R/torch-graphed.records.jsonl" | sed 's/^/    not_profiled records: /' |
    tee -a "$R/steps.log"
  pack
fi
if [[ " $stages " == *" procs "* ]]; then
  PROCS=("$APPS/roofkit_app_two_processes")
  profile two-processes 40 -- "${PROCS[@]}"
  compare_with_ncu two-processes 60 "${PROCS[@]}"
  profile two-processes-alone 40 -- "${PROCS[@]}" alone
  compare_with_ncu two-processes-alone 60 "${PROCS[@]}" alone
  pack
fi
if [[ " $stages " == *" bigmem "* ]]; then
  for f in 0.8 0.998; do
    profile bigmem-$f 150 --kernel add_one_in_place --launch-count 1 -- \
      "$APPS/roofkit_app_big_memory" $f
  done
  pack
fi
step "done"
pack

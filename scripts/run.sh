#!/usr/bin/env bash
# The README's main command: sets up, builds, and runs roofline-cuda on the bundled kernels.
# With a GPU: builds roofline-cuda and occupancy-calc (no tests), then verifies, times, profiles
#   and places every kernel; writes out/run.json and charts, and says where the tools are.
# Without a GPU: builds only what the recorded report needs - roofline-cuda's offline
#   subcommands, with no CUDA kernels (-DROOFKIT_GPU=OFF), compiled for build speed
#   (-DROOFKIT_QUICK_BUILD=ON) - and prints the report of the H100
#   run recorded in data/, labelled as such.
# Ends with the time from the start to the first result.
# Usage: scripts/run.sh [extra roofline-cuda bench options...]
#        scripts/run.sh --dry-run   configure only and print what the build would compile
#   ROOFKIT_RUN_BUILD_DIR=DIR       build there instead of build/run (build/run-offline
#                                   without a GPU)
#   ROOFKIT_RUN_OFFLINE=1           the no-GPU path even where there is a GPU
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
gpu=0
quick=()
if [ "${ROOFKIT_RUN_OFFLINE:-0}" != 1 ] && command -v nvidia-smi >/dev/null &&
  nvidia-smi -L >/dev/null 2>&1; then gpu=1; fi
jobs="${ROOFKIT_JOBS:-$(nproc)}"
if [ $gpu = 1 ]; then
  echo "run.sh: GPU found: building roofline-cuda with its CUDA kernels and occupancy-calc" \
       "(about 6 minutes on 2 idle cores, 2 on 16; only changed files after that)" >&2
  targets=(roofline-cuda occupancy-calc)
  build="${ROOFKIT_RUN_BUILD_DIR:-build/run}"
  gpu_flag=ON
else
  echo "run.sh: no GPU: building roofline-cuda's offline part only, no CUDA kernels (about 2" \
       "minutes on 2 cores the first time, seconds after), then the recorded H100 report" >&2
  targets=(roofline-cuda)
  build="${ROOFKIT_RUN_BUILD_DIR:-build/run-offline}"
  gpu_flag=OFF
  quick=(-DROOFKIT_QUICK_BUILD=ON)
fi
ROOFKIT_SETUP_OPTIONAL=0 scripts/setup.sh
source scripts/cuda-env.sh
# Only what this script runs: the tools and the library (and, with a GPU, the kernels) they link.
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DROOFKIT_BUILD_TESTS=OFF \
  -DROOFKIT_BUILD_BENCHMARKS=OFF -DROOFKIT_BUILD_EXAMPLES=OFF -DROOFKIT_GPU=$gpu_flag \
  -DCMAKE_CUDA_ARCHITECTURES="${ROOFKIT_CUDA_ARCH:-90}" \
  -DCMAKE_CUDA_COMPILER="$CUDA_HOME/bin/nvcc" "${quick[@]}" >/dev/null
if [ "${1:-}" = "--dry-run" ]; then
  ninja -C "$build" -t commands "${targets[@]}"
  exit 0
fi
cmake --build "$build" --target "${targets[@]}" -j "$jobs" >&2
built=$(date +%s)
tool="$build/tools/roofline-cuda"
mkdir -p out
if [ $gpu = 1 ]; then
  echo "run.sh: tools built: $tool and $build/tools/occupancy-calc" >&2
  "$tool" bench -o out/run.json --plot out/roofline.html "$@"
  done_at=$(date +%s)
  "$tool" plot out/run.json -o out/roofline.svg
  "$tool" plot out/run.json --bandwidth -o out/bandwidth.svg
  echo "run.sh: results in out/run.json, charts in out/roofline.html (interactive)," \
       "out/roofline.svg and out/bandwidth.svg" >&2
else
  echo "run.sh: no GPU on this machine: showing the run recorded on an H100" \
       "(data/runs/h100-sxm.json)" >&2
  "$tool" report --recorded data/runs/h100-sxm.json
  done_at=$(date +%s)
  "$tool" plot --recorded data/runs/h100-sxm.json --term
  "$tool" plot --recorded data/runs/h100-sxm.json -o out/roofline-h100-recorded.html
  echo "run.sh: interactive chart of the recorded run in out/roofline-h100-recorded.html" >&2
  echo "run.sh: tool built: $tool (offline subcommands: device, report, plot," \
       "compare); occupancy-calc: cmake --build $build --target occupancy-calc" >&2
fi
echo "run.sh: first result after $((done_at - start)) s (set-up and build $((built - start)) s)" >&2

#!/usr/bin/env bash
# The README's main command: sets up, builds roofline-cuda only (no tests, no other tool), and
# runs it on the bundled kernels.
# With a GPU: verifies, times, profiles and places every kernel; writes out/run.json and charts.
# Without a GPU: prints the same report from the H100 run recorded in data/, labelled as such.
# Ends with the time from the start to the first result.
# Usage: scripts/run.sh [extra roofline-cuda bench options...]
#        scripts/run.sh --dry-run   configure only and print what the build would compile
#   ROOFKIT_RUN_BUILD_DIR=DIR       build there instead of build/run
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
ROOFKIT_SETUP_OPTIONAL=0 scripts/setup.sh
source scripts/cuda-env.sh
build="${ROOFKIT_RUN_BUILD_DIR:-build/run}"
# Only what this script runs: the tool and the library and kernels it links.
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DROOFKIT_BUILD_TESTS=OFF \
  -DROOFKIT_BUILD_BENCHMARKS=OFF -DCMAKE_CUDA_ARCHITECTURES="${ROOFKIT_CUDA_ARCH:-90}" \
  -DCMAKE_CUDA_COMPILER="$CUDA_HOME/bin/nvcc" >/dev/null
if [ "${1:-}" = "--dry-run" ]; then
  ninja -C "$build" -t commands roofline-cuda
  exit 0
fi
cmake --build "$build" --target roofline-cuda -j "${ROOFKIT_JOBS:-$(nproc)}" >&2
built=$(date +%s)
tool="$build/tools/roofline-cuda/roofline-cuda"
[ -x "$tool" ] || tool="$build/tools/roofline-cuda"
mkdir -p out
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
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
fi
echo "run.sh: first result after $((done_at - start)) s (set-up and build $((built - start)) s)" >&2

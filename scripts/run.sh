#!/usr/bin/env bash
# The README's main command: sets up, builds, and runs roofline-cuda on the bundled kernels.
# With a GPU: verifies, times, profiles and places every kernel; writes out/run.json and charts.
# Without a GPU: prints the same report from the H100 run recorded in data/, labelled as such.
# Usage: scripts/run.sh [extra roofline-cuda bench options...]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh release
tool=build/release/tools/roofline-cuda
mkdir -p out
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  "$tool" bench -o out/run.json --plot out/roofline.html "$@"
  "$tool" plot out/run.json -o out/roofline.svg
  echo "run.sh: results in out/run.json, charts in out/roofline.svg and out/roofline.html" >&2
else
  echo "run.sh: no GPU on this machine: showing the run recorded on an H100 (data/runs/h100-sxm.json)" >&2
  "$tool" report --recorded data/runs/h100-sxm.json
  "$tool" plot --recorded data/runs/h100-sxm.json --term
  "$tool" plot --recorded data/runs/h100-sxm.json -o out/roofline-h100-recorded.svg
  echo "run.sh: chart of the recorded run in out/roofline-h100-recorded.svg" >&2
fi

#!/usr/bin/env bash
# Configures and builds roofkit with a CMake preset (default: ci) in build/<preset>.
# Usage: scripts/build.sh [preset] [extra cmake -D options...]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/cuda-env.sh
preset="${1:-ci}"
shift || true
jobs="${ROOFKIT_JOBS:-$(nproc)}"
cmake --preset "$preset" -DCMAKE_CUDA_COMPILER="$CUDA_HOME/bin/nvcc" "$@" >&2
cmake --build --preset "$preset" -j "$jobs" >&2

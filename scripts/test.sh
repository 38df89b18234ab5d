#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, and runs every CPU test.
# GPU tests (label `gpu`) run too when a GPU is present; without one they are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh ci
exclude=(-LE gpu)
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then exclude=(); fi
ctest --test-dir build/ci --output-on-failure -j "${ROOFKIT_JOBS:-$(nproc)}" "${exclude[@]}" "$@"

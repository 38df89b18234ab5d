#!/usr/bin/env bash
# Compiles the library's CUDA sources for other GPU architectures than the main build's, so that
# a build for an A100 (80), an RTX card (86, 89, 120) or a B200 (100) cannot break unnoticed.
# Only the .cu objects of the library are compiled (no linking, no tests), once for all the
# architectures together, to PTX ("80-virtual"): nvcc's front end, which rejects what an
# architecture lacks (BF16 arithmetic, wgmma), runs per architecture, and the host side and
# ptxas are not repeated. About a minute on 2 cores.
# Usage: scripts/check-archs.sh [ARCH...]     (default: 80 86 89 100 120)
#   The main build (scripts/build.sh ci) already compiles everything for 90.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/cuda-env.sh
archs=("$@")
((${#archs[@]})) || archs=(80 86 89 100 120)
jobs="${ROOFKIT_JOBS:-$(nproc)}"
failed=()
list="$(printf '%s-virtual;' "${archs[@]}")"
dir="build/arch-check"
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="${list%;}" \
  -DROOFKIT_WARNINGS_AS_ERRORS=ON -DROOFKIT_BUILD_TESTS=OFF -DROOFKIT_BUILD_EXAMPLES=OFF \
  -DROOFKIT_BUILD_KERNELS=OFF -DROOFKIT_BUILD_TOOLS=OFF \
  -DCMAKE_CUDA_COMPILER="$CUDA_HOME/bin/nvcc" >/dev/null
mapfile -t objects < <(ninja -C "$dir" -t targets all | sed -n 's/^\(lib\/[^:]*\.cu\.o\): .*/\1/p')
if ((${#objects[@]} == 0)); then
  echo "check-archs: no CUDA objects found in $dir" >&2
  failed+=("${archs[*]}")
else
  echo "check-archs: compiling ${#objects[@]} CUDA sources of the library for ${archs[*]}" >&2
  ninja -C "$dir" -j "$jobs" "${objects[@]}" >&2 || failed+=("${archs[*]}")
fi
if ((${#failed[@]})); then
  echo "check-archs: FAILED for architecture(s) ${failed[*]}" >&2
  exit 1
fi
echo "check-archs: the library's CUDA sources compile for ${archs[*]}" >&2

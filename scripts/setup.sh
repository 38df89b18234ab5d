#!/usr/bin/env bash
# Installs the Debian packages roofkit needs that are missing, and checks the CUDA toolkit.
# Usage: scripts/setup.sh   (idempotent; needs root or sudo only when something is missing)
set -euo pipefail

packages=(cmake ninja-build g++ pkg-config libeigen3-dev libcli11-dev nlohmann-json3-dev libfmt-dev
          libgtest-dev libbenchmark-dev librsvg2-bin libcairo2-dev)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

# A machine without dpkg (or with the headers installed another way) can skip the install.
if ((${#missing[@]})) && command -v apt-get >/dev/null; then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >&2
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

# The CUDA toolkit is not a Debian package here: say how to get it if absent.
source "$(dirname "$0")/cuda-env.sh"
if ! command -v nvcc >/dev/null; then
  echo "setup: nvcc not found. Install the CUDA Toolkit 12.6 or later" \
       "(https://developer.nvidia.com/cuda-downloads) and put its bin/ on PATH," \
       "or set CUDA_HOME." >&2
  exit 1
fi
if [ ! -f "$CUDA_HOME/include/cupti_range_profiler.h" ] &&
   [ ! -f "$CUDA_HOME/extras/CUPTI/include/cupti_range_profiler.h" ]; then
  echo "setup: CUPTI headers not found under $CUDA_HOME (need CUDA 12.6+ with CUPTI;" \
       "on Debian/Ubuntu packages: cuda-cupti-dev-12-6 or later)." >&2
  exit 1
fi
echo "setup: ok ($(nvcc --version | grep -o 'release [0-9.]*'), CUDA_HOME=$CUDA_HOME)" >&2

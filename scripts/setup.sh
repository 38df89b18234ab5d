#!/usr/bin/env bash
# Installs what roofkit needs that is missing (Debian/Ubuntu packages), and checks the CUDA
# toolkit. Each dependency is probed by a file it provides, so machines that have the headers
# from elsewhere need no package manager. Idempotent; needs root or sudo only to install.
# Usage: scripts/setup.sh
set -euo pipefail

# package:probe (a command on PATH, or a file that the package installs)
deps=(cmake:cmake ninja-build:ninja g++:g++ pkg-config:pkg-config
      libeigen3-dev:/usr/include/eigen3/Eigen/Dense libcli11-dev:/usr/include/CLI/CLI.hpp
      nlohmann-json3-dev:/usr/include/nlohmann/json.hpp libfmt-dev:/usr/include/fmt/format.h
      libgtest-dev:/usr/include/gtest/gtest.h libbenchmark-dev:/usr/include/benchmark/benchmark.h
      librsvg2-bin:rsvg-convert libcairo2-dev:/usr/include/cairo/cairo.h
      clang-format:clang-format clang:clang++ libclang-rt-dev:/usr/share/doc/libclang-rt-dev)
# clang-format, clang and libclang-rt-dev serve scripts/test.sh: the format check, libFuzzer.
optional=" libbenchmark-dev librsvg2-bin libcairo2-dev pkg-config clang-format clang libclang-rt-dev "

missing=()
for d in "${deps[@]}"; do
  pkg="${d%%:*}" probe="${d#*:}"
  if [[ "$probe" == /* ]]; then [ -e "$probe" ] && continue; else command -v "$probe" >/dev/null && continue; fi
  missing+=("$pkg")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  if ! { command -v apt-get >/dev/null && $sudo apt-get update -qq >&2 &&
         $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2; }; then
    required=()
    for p in "${missing[@]}"; do [[ "$optional" == *" $p "* ]] || required+=("$p"); done
    if ((${#required[@]})); then
      echo "setup: could not install ${required[*]}: install them (Debian/Ubuntu package" \
           "names) and run again" >&2
      exit 1
    fi
    echo "setup: optional packages not installed (${missing[*]}): PNG/PDF charts, the" \
         "occupancy benchmark or the SVG rendering test may be unavailable" >&2
  fi
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

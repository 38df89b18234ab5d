#!/usr/bin/env bash
# Installs what roofkit needs that is missing (Debian/Ubuntu packages), and checks the CUDA
# toolkit. Each dependency is probed by a file it provides (no package manager is asked when
# everything is there). Required packages are installed when missing; optional ones only when
# the package manager answers quickly (root or passwordless sudo, a mirror reachable within a
# few seconds), each install under a time limit. One line says what was skipped and why.
# Idempotent; needs root or sudo only to install.
# Usage: scripts/setup.sh
#   ROOFKIT_SETUP_OPTIONAL=0  never install optional packages (scripts/run.sh sets it)
#   ROOFKIT_SETUP_MIRROR=URL  the mirror to probe instead of the first one apt is configured with
#   ROOFKIT_SETUP_ASSUME_MISSING="pkg ..."  treat these packages as missing (for tests)
set -euo pipefail

# package:probe (a command on PATH, or a file that the package installs)
required=(cmake:cmake ninja-build:ninja g++:g++
          libeigen3-dev:/usr/include/eigen3/Eigen/Dense libcli11-dev:/usr/include/CLI/CLI.hpp
          nlohmann-json3-dev:/usr/include/nlohmann/json.hpp libfmt-dev:/usr/include/fmt/format.h
          libgtest-dev:/usr/include/gtest/gtest.h)
# package:probe:what it is for
optional=("pkg-config:pkg-config:cairo detection"
          "libcairo2-dev:/usr/include/cairo/cairo.h:PNG/PDF charts"
          "librsvg2-bin:rsvg-convert:PNG copies of the SVG charts"
          "libbenchmark-dev:/usr/include/benchmark/benchmark.h:the occupancy benchmark"
          "chromium:chromium:the HTML chart test in a browser"
          "clang-format:clang-format:the format check of scripts/test.sh"
          "clang:clang++:the libFuzzer targets"
          "libclang-rt-dev:/usr/share/doc/libclang-rt-dev:the libFuzzer runtime")

present() { # package probe
  [[ " ${ROOFKIT_SETUP_ASSUME_MISSING:-} " == *" $1 "* ]] && return 1
  if [[ "$2" == /* ]]; then [ -e "$2" ]; else command -v "$2" >/dev/null 2>&1; fi
}

missing_required=()
for d in "${required[@]}"; do
  present "${d%%:*}" "${d#*:}" || missing_required+=("${d%%:*}")
done
missing_optional=() optional_why=()
for d in "${optional[@]}"; do
  pkg="${d%%:*}" rest="${d#*:}"
  present "$pkg" "${rest%%:*}" && continue
  missing_optional+=("$pkg")
  optional_why+=("$pkg (${rest#*:})")
done

# Can packages be installed, quickly? Root or passwordless sudo, apt-get, a reachable mirror.
sudo=""
can_install=""
why_not=""
if ! command -v apt-get >/dev/null; then
  why_not="no apt-get"
elif [ "$(id -u)" -ne 0 ] && ! { command -v sudo >/dev/null && sudo -n true 2>/dev/null; }; then
  why_not="not root and no passwordless sudo"
else
  [ "$(id -u)" -ne 0 ] && sudo="sudo -n"
  host="${ROOFKIT_SETUP_MIRROR:-}"
  [ -n "$host" ] || host="$(grep -rhoE --include='*.list' --include='*.sources' \
          '^(deb|URIs:) *(\[[^]]*\] *)?https?://[^/ ]+' /etc/apt/sources.list \
          /etc/apt/sources.list.d/ 2>/dev/null | grep -oE 'https?://[^/ ]+' | head -1 || true)"
  if [ -z "$host" ]; then
    can_install=1 # a local mirror or cache: let apt-get try
  else
    name="${host#*://}" port=80
    [[ "$host" == https* ]] && port=443
    if timeout 3 bash -c "exec 3<>/dev/tcp/${name%%:*}/$port" 2>/dev/null; then
      can_install=1
    else
      why_not="package mirror $name not reachable"
    fi
  fi
fi

export DEBIAN_FRONTEND=noninteractive
updated=""
apt_install() { # time limit, packages...
  local limit="$1"
  shift
  if [ -z "$updated" ] && ! ls /var/lib/apt/lists/*Packages* >/dev/null 2>&1; then
    timeout 120 $sudo apt-get update -qq >&2 || return 1
    updated=1
  fi
  timeout "$limit" $sudo apt-get install -y -qq --no-install-recommends "$@" >&2 && return 0
  # Stale package lists: refresh once and try again.
  [ -n "$updated" ] && return 1
  timeout 120 $sudo apt-get update -qq >&2 || return 1
  updated=1
  timeout "$limit" $sudo apt-get install -y -qq --no-install-recommends "$@" >&2
}

if ((${#missing_required[@]})); then
  if [ -z "$can_install" ]; then
    echo "setup: missing ${missing_required[*]} and cannot install ($why_not): install them" \
         "(Debian/Ubuntu package names) and run again" >&2
    exit 1
  fi
  echo "setup: installing ${missing_required[*]}" >&2
  if ! apt_install 600 "${missing_required[@]}"; then
    echo "setup: could not install ${missing_required[*]}: install them (Debian/Ubuntu" \
         "package names) and run again" >&2
    exit 1
  fi
fi

skipped=()
if ((${#missing_optional[@]})); then
  if [ "${ROOFKIT_SETUP_OPTIONAL:-1}" = 0 ]; then
    skipped=("${optional_why[@]}")
    why_not="ROOFKIT_SETUP_OPTIONAL=0"
  elif [ -z "$can_install" ]; then
    skipped=("${optional_why[@]}")
  else
    for i in "${!missing_optional[@]}"; do
      pkg="${missing_optional[$i]}"
      echo "setup: installing optional $pkg" >&2
      if ! apt_install 180 "$pkg"; then
        skipped+=("${optional_why[$i]}")
        why_not="install failed or took too long"
      fi
    done
  fi
fi
if ((${#skipped[@]})); then
  list="$(printf '%s, ' "${skipped[@]}")"
  echo "setup: skipped optional ${list%, } [$why_not]" >&2
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

#!/usr/bin/env bash
# The README's test command, and what CI runs: installs what is missing, builds, then
#   1. the tests of build/ci: CPU, CLI (with the JSON-schema checks) and install tests; GPU tests
#      too when a GPU is present (without one they are skipped);
#   2. the library's CUDA sources compiled for 80, 86, 89, 100 and 120 too (scripts/check-archs.sh;
#      the build above is for 90), so that a build for another GPU cannot break unnoticed;
#   3. the clang-format check of every C++/CUDA source (scripts/check-format.sh);
#   4. the ASan + UBSan build (preset asan, build/asan): the CPU tests again, then every fuzz
#      target for ROOFKIT_FUZZ_SECONDS seconds (default 20) from its committed corpus.
# Every step runs even when an earlier one failed; the exit code is 1 when any failed.
# For local runs: ROOFKIT_SKIP_ARCHS=1, ROOFKIT_SKIP_FORMAT=1 and ROOFKIT_SKIP_ASAN=1 skip steps
# 2, 3 and 4; ROOFKIT_CHECK_ARCHS="80 120" chooses the architectures of step 2;
# ROOFKIT_FUZZ_SECONDS=0 replays the corpora only. Extra arguments go to the first ctest.
# See docs/testing.md.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh ci
jobs="${ROOFKIT_JOBS:-$(nproc)}"
failed=()

exclude=(-LE gpu)
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then exclude=(); fi
ctest --test-dir build/ci --output-on-failure -j "$jobs" "${exclude[@]}" "$@" || failed+=(tests)

if [ "${ROOFKIT_SKIP_ARCHS:-0}" = 1 ]; then
  echo "test: other-architecture compile skipped (ROOFKIT_SKIP_ARCHS=1)" >&2
else
  # shellcheck disable=SC2086 # a list of architectures
  scripts/check-archs.sh ${ROOFKIT_CHECK_ARCHS:-} || failed+=(architectures)
fi

if [ "${ROOFKIT_SKIP_FORMAT:-0}" = 1 ]; then
  echo "test: clang-format check skipped (ROOFKIT_SKIP_FORMAT=1)" >&2
else
  scripts/check-format.sh || failed+=(format)
fi

if [ "${ROOFKIT_SKIP_ASAN:-0}" = 1 ]; then
  echo "test: sanitizer build and fuzzing skipped (ROOFKIT_SKIP_ASAN=1)" >&2
else
  # Clang brings libFuzzer; with GCC the fuzz targets use a random-mutation driver.
  compiler=()
  if command -v clang++ >/dev/null; then compiler=(-DCMAKE_CXX_COMPILER=clang++); fi
  if scripts/build.sh asan "${compiler[@]}" -DROOFKIT_FUZZ_SECONDS="${ROOFKIT_FUZZ_SECONDS:-20}"
  then
    # Leak checks stay on; a finding of any sanitizer ends the test with a report.
    ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}" \
    UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}" \
      ctest --preset asan -j "$jobs" || failed+=(asan)
  else
    failed+=("asan build")
  fi
fi

if ((${#failed[@]})); then
  echo "test: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "test: all steps passed" >&2

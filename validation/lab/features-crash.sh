#!/usr/bin/env bash
# Why tests/apps/app_features.cu dies under `profile`: runs it ROUNDS times per injection library
# (this tree's and, with OLD_SRC naming another revision's source tree, that one's) and per replay
# batch (32 and 1), with a preloaded handler that prints the native backtrace on SIGSEGV, then
# once under gdb when the machine has it.
# Usage (GPU machine): OUT=dir [ROUNDS=n] [BATCHES="32 1"] [FRAMES=n] [OLD_SRC=dir] validation/lab/features-crash.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
mkdir -p "$OUT"
BUILD="${BUILD:-build/gpu}"
source validation/lab/build-targets.sh roofline-cuda roofkit_inject roofkit_app_features
gcc -shared -fPIC -o "$OUT/bt.so" validation/lab/backtrace_on_signal.c || exit 1
libs=("tree=$PWD/$BUILD/lib/libroofkit_inject.so")
if [ -n "${OLD_SRC:-}" ]; then
  (cd "$OLD_SRC" && BUILD=build OUT="$OUT/old" && mkdir -p "$OUT/old" &&
    source validation/lab/build-targets.sh roofkit_inject) &&
    libs+=("old=$OLD_SRC/build/lib/libroofkit_inject.so")
fi
APP="$BUILD/tests/apps/roofkit_app_features"
for entry in "${libs[@]}"; do
  name=${entry%%=*}
  for batch in ${BATCHES:-32 1}; do
    for i in $(seq "${ROUNDS:-3}"); do
      tag="$name-b$batch-$i"
      t0=$(date +%s.%N)
      ROOFKIT_INJECT_LIBRARY="${entry#*=}" LD_PRELOAD="$OUT/bt.so" timeout 60 \
        "$BUILD/tools/roofline-cuda" profile --replay-batch "$batch" --records "$OUT/$tag.jsonl" \
        -o "$OUT/$tag.json" -- "$APP" >"$OUT/$tag.out" 2>"$OUT/$tag.err"
      rc=$?
      echo "features-crash: $tag rc=$rc launches=$(grep -c '"type":"launch"' "$OUT/$tag.jsonl")" \
        "wall $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }') s"
    done
  done
done
# Every backtrace, the injection library's frames named from its symbol table (NAME.frames); the
# first crash's on stdout.
shown=0
for f in $(grep -l "=== backtrace" "$OUT"/*.err); do
  grep -v "^app_features" "$f" | python3 validation/lab/name_frames.py >"${f%.err}.frames"
  [ $shown = 0 ] && { echo "== $f"; head -"${FRAMES:-40}" "${f%.err}.frames"; shown=1; }
done
if command -v gdb >/dev/null; then
  "$BUILD/tools/roofline-cuda" profile --records "$OUT/gdb.jsonl" -o "$OUT/gdb.json" -- \
    gdb -q -batch -ex run -ex "thread apply all bt 25" --args "$APP" >"$OUT/gdb.out" 2>&1
  grep -A40 "SIGSEGV" "$OUT/gdb.out" | head -120
else
  echo "features-crash: no gdb"
fi

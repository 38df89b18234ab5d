#!/usr/bin/env bash
# Where a hung profiled application waits: runs `roofline-cuda profile` on the PyTorch script with
# a preloaded handler that prints each thread's native backtrace on SIGUSR2, waits WAIT seconds,
# signals every thread, then aborts it with Python's fault handler on (the Python stack).
# Usage (GPU machine): BUILD=dir OUT=dir [WAIT=s] validation/lab/hang-stacks.sh [profile options]
set -uo pipefail
cd "$(dirname "$0")/../.."
mkdir -p "$OUT"
source validation/lab/build-targets.sh roofline-cuda roofkit_inject
gcc -shared -fPIC -o "$OUT/bt.so" validation/lab/backtrace_on_signal.c || exit 1
python3 tests/apps/torch_ops.py >/dev/null 2>&1
LD_PRELOAD="$OUT/bt.so" PYTHONFAULTHANDLER=1 "$BUILD/tools/roofline-cuda" profile "$@" \
  --records "$OUT/hang.jsonl" -o "$OUT/hang.json" -- python3 tests/apps/torch_ops.py \
  >"$OUT/hang.out" 2>"$OUT/hang.err" &
sleep "${WAIT:-40}"
P=$(pgrep -f "^python3 tests/apps/torch_ops.py" | head -1)
echo "hang-stacks: pid ${P:-none}"
if [ -n "$P" ]; then
  for t in /proc/$P/task/*; do
    python3 -c "import ctypes,sys; ctypes.CDLL(None).syscall(234, int(sys.argv[1]), int(sys.argv[2]), 12)" "$P" "${t##*/}"
    sleep 0.2
  done
  sleep 1
  kill -ABRT "$P"
fi
wait
grep -E "^(TRACE|===|roofkit)" "$OUT/hang.err" | tail -30
grep -A30 "=== backtrace tid $P$" "$OUT/hang.err" | head -40
grep -B2 -A12 "Current thread\|Thread 0x" "$OUT/hang.err" | head -60

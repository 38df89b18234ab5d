#!/usr/bin/env bash
# Where the replay time of profiled launches goes: runs `roofline-cuda profile --sample all` on
# the application given with ROOFKIT_REPLAY_PHASES=1, which makes the injected library print, at
# exit, each phase's total seconds and milliseconds per profiled launch (sync before the
# checkpoint, checkpoint save, counter configuration, memory restore before each pass, pass
# start (and of it the first pass of each set), cache flush and work, pass stop, decoding) and how
# many batches each kind of driver call ended, then the wall time of the profiled run and of the
# application alone. Extra profile options go in PROFILE_OPTS (e.g. "--replay-batch 1").
# Usage (GPU machine, after a build): validation/scripts/replay-cost.sh BUILD_DIR APP [ARGS...]
set -uo pipefail
ulimit -c 0
BUILD="${1:?usage: replay-cost.sh BUILD_DIR APP [ARGS...]}"
shift
[ $# -ge 1 ] || { echo "usage: replay-cost.sh BUILD_DIR APP [ARGS...]" >&2; exit 2; }
RC="$BUILD/tools/roofline-cuda"
W="$(mktemp -d)"
a=$(date +%s.%N)
"$@" >/dev/null 2>&1
b=$(date +%s.%N)
# shellcheck disable=SC2086
ROOFKIT_REPLAY_PHASES=1 "$RC" profile --sample all -q ${PROFILE_OPTS:-} -o "$W/run.json" -- "$@" \
  >/dev/null 2>"$W/err"
rc=$?
c=$(date +%s.%N)
grep '^roofkit-inject: .*\(replay phases\|  \)' "$W/err"
grep 'kernel launches' "$W/err"
awk -v a="$a" -v b="$b" -v c="$c" -v rc="$rc" 'BEGIN {
  printf "application alone %.3f s; profiled %.3f s (exit %d)\n", b - a, c - b, rc }'
python3 - "$W/run.json" <<'PY'
import json, sys
try:
    p = json.load(open(sys.argv[1]))["profile"]
except (OSError, ValueError, KeyError):
    sys.exit(0)
n = p.get("profiled_launches") or 0
if n:
    print("profiler overhead per profiled launch (run file): %.3f ms over %d launches"
          % (1e3 * p["profile_overhead_s"] / n, n))
PY

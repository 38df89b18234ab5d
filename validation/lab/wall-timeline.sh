#!/usr/bin/env bash
# Lab (issue 39), one device call: where a 50-step profiled run's wall time goes besides its
# measured steps. For the GPT loop and the MLP-Mixer step (after a 2-step run of each): alone,
# under `profile` with nothing selected (--kernel nomatch_zz; for the GPT loop also without kernel
# activity), with the defaults, and alone again; every output line stamped with the time it
# arrived, the application's start and end marked from inside Python, the replay phases on. Writes
# $OUT/wall-timeline.json (wall_timeline_json.py).
# Usage (GPU machine): OUT=dir REV=rev validation/lab/wall-timeline.sh
cd "$(dirname "$0")/../.." || exit 2
ROOT=$(mkdir -p "$OUT" && cd "$OUT" && pwd)
export OUT=$ROOT BUILD=build/gpu
source validation/lab/lab-start.sh walltimeline
source validation/lab/build-targets.sh roofline-cuda roofkit_inject
echo "built at $SECONDS s"
RC=$BUILD/tools/roofline-cuda
$RC profile -q -o $W/roofs.json -- python3 validation/apps/train_step.py --steps 1 >/dev/null 2>&1
stamp() { while IFS= read -r l; do printf '%s %s\n' "$(date +%s.%N)" "$l"; done; }
PY="import time,sys,runpy; sys.path.insert(0,'validation/apps'); print('MARK start', time.time(), \
flush=True); sys.argv=[sys.argv[1]]+sys.argv[2:]; runpy.run_path(sys.argv[0], run_name='__main__')"
# run NAME CMD...: $W/NAME.txt holds T0, the stamped output and T1.
run() {
  local name=$1; shift
  echo "T0 $(date +%s.%N)" >"$W/$name.txt"
  "$@" 2>&1 | stamp >>"$W/$name.txt"
  echo "T1 $(date +%s.%N)" >>"$W/$name.txt"
  echo "$name at $SECONDS s"
}
for app in gpt_train train_step; do
  A=(python3 -u -c "$PY" validation/apps/$app.py --steps 50)
  python3 validation/apps/$app.py --steps 2 >/dev/null 2>&1
  run $app.alone "${A[@]}"
  run $app.nomatch env ROOFKIT_REPLAY_PHASES=1 $RC profile -q --kernel nomatch_zz -o $W/n.json -- "${A[@]}"
  [ $app = gpt_train ] && run $app.nomatch_noact env ROOFKIT_PROFILE_ACTIVITY=off \
    ROOFKIT_REPLAY_PHASES=1 $RC profile -q --kernel nomatch_zz -o $W/n.json -- "${A[@]}"
  run $app.default env ROOFKIT_REPLAY_PHASES=1 $RC profile -q -o $W/d.json -- "${A[@]}"
  run $app.alone2 "${A[@]}"
done
python3 validation/lab/wall_timeline_json.py "$W" "${REV:-unknown}" >$ROOT/wall-timeline.json
echo "finished at $SECONDS s"

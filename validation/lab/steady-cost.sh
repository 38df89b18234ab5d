#!/usr/bin/env bash
# Lab (issue 39), one device call: what every launch costs under `profile` once nothing is
# replayed. ROUNDS (default 3) rounds, in turn within each, of the MLP-Mixer step (30 steps; its
# measured steps) and 100,000 tiny launches (tests/apps/long_run.cu): alone, under `profile` with
# nothing selected (--kernel nomatch_zz), and the same with kernel activity off
# (ROOFKIT_PROFILE_ACTIVITY=off: events time the launches). Writes $OUT/steady-cost.json.
# Usage (GPU machine): OUT=dir REV=rev [ROUNDS=n] validation/lab/steady-cost.sh
cd "$(dirname "$0")/../.." || exit 2
ROOT=$(mkdir -p "$OUT" && cd "$OUT" && pwd)
export OUT=$ROOT BUILD=build/gpu
source validation/lab/lab-start.sh steadycost
source validation/lab/build-targets.sh roofline-cuda roofkit_inject roofkit_app_long_run
echo "built at $SECONDS s"
source validation/lab/timed.sh
RC=$BUILD/tools/roofline-cuda
LONG=$BUILD/tests/apps/roofkit_app_long_run
STEP=(python3 validation/apps/train_step.py --steps 30)
$RC profile -q -o $W/roofs.json -- "${STEP[@]}" >/dev/null 2>&1
NONE=(profile -q --kernel nomatch_zz -o $W/n.json --)
for round in $(seq "${ROUNDS:-3}"); do
  timed step.alone.$round "${STEP[@]}"
  timed long.alone.$round "$LONG" 100000
  timed step.nothing.$round $RC "${NONE[@]}" "${STEP[@]}"
  timed long.nothing.$round $RC "${NONE[@]}" "$LONG" 100000
  timed step.nothing_noact.$round env ROOFKIT_PROFILE_ACTIVITY=off $RC "${NONE[@]}" "${STEP[@]}"
  timed long.nothing_noact.$round env ROOFKIT_PROFILE_ACTIVITY=off $RC "${NONE[@]}" "$LONG" 100000
done
python3 validation/lab/steady_cost_json.py "$W" "${REV:-unknown}" >$ROOT/steady-cost.json
echo "finished at $SECONDS s"

#!/usr/bin/env bash
# Lab (issue 39), one device call: what a launch that is not profiled costs, part by part, once
# each shape is measured. launch-parts.patch (not kept) times each part of the launch callback
# (ROOFKIT_REPLAY_PHASES=1) and the driver's launch body between our entry and exit callbacks, and
# adds two cuts: ROOFKIT_LAB_CUT=session (no counter session, nothing profiled) and capture (no
# cuStreamIsCapturing). The MLP-Mixer step (30 steps) and 100,000 tiny launches
# (tests/apps/long_run.cu): walls alone and per variant in two rounds, then one run of each with
# the parts timed. VARIANTS (default all) picks some; APP another of validation/apps (default
# train_step, the MLP-Mixer step) with STEP_LAUNCHES its launches a step. Writes
# $OUT/launch-parts.json.
# Usage (GPU machine): patch -p1 < validation/lab/launch-parts.patch; OUT=dir REV=rev
#   [VARIANTS="default ..."] [APP=gpt_train STEP_LAUNCHES=571] validation/lab/launch-parts.sh
cd "$(dirname "$0")/../.." || exit 2
ROOT=$(mkdir -p "$OUT" && cd "$OUT" && pwd)
export OUT=$ROOT BUILD=${BUILD:-build/gpu}
source validation/lab/lab-start.sh launchparts
source validation/lab/build-targets.sh roofline-cuda roofkit_inject roofkit_app_long_run
source validation/lab/timed.sh
echo "built at $SECONDS s"
RC=$BUILD/tools/roofline-cuda
LONG=$BUILD/tests/apps/roofkit_app_long_run
STEP=(python3 validation/apps/${APP:-train_step}.py --steps 30)
$RC profile -q -o $W/roofs.json -- "${STEP[@]}" >/dev/null 2>&1
"$LONG" 1000 >/dev/null 2>&1
read -ra variants <<<"${VARIANTS:-default ROOFKIT_LAB_CUT=session ROOFKIT_LAB_CUT=capture \
ROOFKIT_PROFILE_ACTIVITY=off}"
source validation/lab/variant-rounds.sh
for v in "${variants[@]}"; do
  env_=(); [ "$v" = default ] || env_=("$v")
  timed "parts.step.$v" env "${env_[@]}" ROOFKIT_REPLAY_PHASES=1 $RC profile -q -o $W/s.json -- \
    "${STEP[@]}"
  timed "parts.long.$v" env "${env_[@]}" ROOFKIT_REPLAY_PHASES=1 $RC profile -q -o $W/l.json -- \
    "$LONG" 100000
done
APP=${APP:-train_step} python3 validation/lab/launch_parts_json.py "$W" "${REV:-unknown}" >$ROOT/launch-parts.json
echo "finished at $SECONDS s"

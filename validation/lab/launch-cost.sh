#!/usr/bin/env bash
# Lab (issue 39), one device call: where the profiler's cost on every launch goes once each shape
# is measured (the steady state of a training loop). The MLP-Mixer step's measured steps (after
# its warm-up) and 100,000 tiny launches (tests/apps/long_run.cu), alone, under `profile` with the
# defaults, and with one part of the per-launch work cut at a time (launch-cost.patch, not kept:
# ROOFKIT_LAB_CUT=entry, timer or spans; ROOFKIT_PROFILE_ACTIVITY=off). VARIANTS (default all)
# picks some, e.g. VARIANTS=default without the patch. Writes $OUT/launch-cost.json.
# Usage (GPU machine): patch -p1 < validation/lab/launch-cost.patch; OUT=dir REV=rev
#   [VARIANTS="default ..."] validation/lab/launch-cost.sh
cd "$(dirname "$0")/../.." || exit 2
ROOT=$(mkdir -p "$OUT" && cd "$OUT" && pwd)
export OUT=$ROOT BUILD=build/gpu
source validation/lab/lab-start.sh launchcost
source validation/lab/build-targets.sh roofline-cuda roofkit_inject roofkit_app_long_run
source validation/lab/timed.sh
echo "built at $SECONDS s"
RC=$BUILD/tools/roofline-cuda
LONG=$BUILD/tests/apps/roofkit_app_long_run
STEP=(python3 validation/apps/train_step.py --steps 30)
$RC profile -q -o $W/roofs.json -- "${STEP[@]}" >/dev/null 2>&1
"$LONG" 1000 >/dev/null 2>&1
read -ra variants <<<"${VARIANTS:-default ROOFKIT_PROFILE_ACTIVITY=off ROOFKIT_LAB_CUT=entry \
ROOFKIT_LAB_CUT=timer ROOFKIT_LAB_CUT=spans}"
source validation/lab/variant-rounds.sh
python3 validation/lab/launch_cost_json.py "$W" "${REV:-unknown}" >$ROOT/launch-cost.json
echo "finished at $SECONDS s"

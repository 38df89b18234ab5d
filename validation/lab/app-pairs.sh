#!/usr/bin/env bash
# Lab (issue 39), one device call: each of our three training applications for 50 steps alone,
# then under `profile` with the defaults, then alone again (after a first profile that measures and
# caches the roofs, and a 2-step run of each application first): wall times, the ratio to the mean
# of the two runs alone, the time of a measured step (after the warm-up) and the profiler time.
# Writes $OUT/app-pairs.json.
# Usage (GPU machine): OUT=dir REV=rev [APPS="resnet_train ..."] validation/lab/app-pairs.sh
cd "$(dirname "$0")/../.." || exit 2
ROOT=$(mkdir -p "$OUT" && cd "$OUT" && pwd)
export OUT=$ROOT BUILD=build/gpu
source validation/lab/lab-start.sh apppairs
source validation/lab/build-targets.sh roofline-cuda roofkit_inject
source validation/lab/timed.sh
echo "built at $SECONDS s"
RC=$BUILD/tools/roofline-cuda
$RC profile -q -o $W/roofs.json -- python3 validation/apps/train_step.py --steps 1 >/dev/null 2>&1
for app in ${APPS:-resnet_train gpt_train train_step}; do
  # A first run fills the caches a cold start pays for once (cuDNN's and the driver's compiled
  # kernels, the Python imports), which would otherwise fall on the run alone.
  timed $app.warm python3 validation/apps/$app.py --steps 2
  timed $app.alone python3 validation/apps/$app.py --steps 50
  timed $app.profiled timeout 200 $RC profile -q -o $W/$app.json -- \
    python3 validation/apps/$app.py --steps 50
  timed $app.alone2 python3 validation/apps/$app.py --steps 50
  grep -a "profiler time" $W/$app.profiled.err
done
python3 validation/lab/app_pairs_json.py "$W" "${REV:-unknown}" >$ROOT/app-pairs.json
echo "finished at $SECONDS s"

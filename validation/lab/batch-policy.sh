#!/usr/bin/env bash
# Lab (issue 39), one device call: how far batching and sampling policies could bring the
# profiled training loops down, from a trace of each loop's batches under the defaults. Each of
# our three training applications runs 50 steps alone, then under `profile` with the defaults and
# ROOFKIT_LAB_TRACE; batch_policy_sim.py fits each trace's batch cost and replays it under the
# other policies. Writes $OUT/batch-policy.json.
# Usage (GPU machine): patch -p1 < validation/lab/replay-trace.patch; OUT=dir REV=rev
#   validation/lab/batch-policy.sh
cd "$(dirname "$0")/../.." || exit 2
ROOT=$(mkdir -p "$OUT" && cd "$OUT" && pwd)
export OUT=$ROOT BUILD=build/gpu
source validation/lab/lab-start.sh batchpolicy
source validation/lab/build-targets.sh roofline-cuda roofkit_inject
source validation/lab/timed.sh
echo "built at $SECONDS s"
RC=$BUILD/tools/roofline-cuda
$RC profile -q -o $W/roofs.json -- python3 validation/apps/train_step.py --steps 1 >/dev/null 2>&1
for app in resnet_train gpt_train train_step; do
  timed $app.alone python3 validation/apps/$app.py --steps 50
  timed $app.profiled env ROOFKIT_LAB_TRACE=$W/$app.trace timeout 200 $RC profile -q \
    -o $W/$app.json -- python3 validation/apps/$app.py --steps 50
  grep -a "profiler time" $W/$app.profiled.err
done
python3 validation/lab/batch_policy_sim.py "$W" "${REV:-unknown}" >$ROOT/batch-policy.json
echo "finished at $SECONDS s"

#!/usr/bin/env bash
# A/B of a lab switch of the working tree (issue 39), one device call: builds this tree, runs the
# GPU tests matching TESTS (default the profiler's and profile's) under B, then one step of the
# training step with every launch profiled (--sample all --profile-from-start off,
# ROOFKIT_REPLAY_PHASES=1) under A (with SWITCH=1 in the environment: the tree's behaviour before
# the change) and B (without), in the order A, B, A, B, comparing the record logs launch by launch
# (validation/lab/records_diff.py); then STEPS steps (default 10) of it under B.
# Writes $OUT/ab.json (per run: set-up, overhead per launch, replay phases; the four diffs),
# $OUT/gpu-tests.xml and the logs.
# Usage (GPU machine): OUT=dir SWITCH=NAME [TESTS=regex] [STEPS=n] validation/lab/switch-ab.sh
cd "$(dirname "$0")/../.." || exit 2
source validation/lab/lab-start.sh switch-ab
source validation/lab/build-targets.sh roofline-cuda roofkit_inject roofkit_gpu_tests
echo "built at $SECONDS s"
source validation/lab/profile-gpu-tests.sh 300
source validation/lab/timed.sh
train=(python3 validation/apps/train_step.py)
all=(env ROOFKIT_REPLAY_PHASES=1 timeout 200 "$BUILD/tools/roofline-cuda" profile -q --sample all
  --profile-from-start off)
timed alone "${train[@]}" --steps 1
for i in 1 2; do
  timed A$i env "$SWITCH=1" "${all[@]}" --records $W/A$i.records.jsonl -o $W/A$i.json -- \
    "${train[@]}" --steps 1
  timed B$i "${all[@]}" --records $W/B$i.records.jsonl -o $W/B$i.json -- "${train[@]}" --steps 1
done
timed steps_alone "${train[@]}" --steps "${STEPS:-10}"
timed steps "${all[@]}" -o $W/steps.json -- "${train[@]}" --steps "${STEPS:-10}"
python3 validation/lab/per_launch_json.py $W alone,steps_alone A1,B1,A2,B2,steps \
  A1:B1,A2:B2,A1:A2,B1:B2 | tee $OUT/ab.json
tar czf $OUT/ab-logs.tgz -C $W --exclude=cache --exclude='*.json' . 2>/dev/null
echo "finished at $SECONDS s"

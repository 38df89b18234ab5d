#!/usr/bin/env bash
# The profiler's time per launch with every launch profiled over several steps of the training
# step (issue 39), one device call: builds this tree, then under --sample all with
# ROOFKIT_REPLAY_PHASES=1 and the metric set's cache file in place (a first one-step run makes
# it, and the roofs): STEPS steps (default 10) of the step's region (--profile-from-start off:
# the measured steps, not the warm-up) twice, one step of it, and STEPS steps of the GPT loop's
# region; the applications alone. Each run's set-up, overhead per launch with and without it,
# wall time and replay phases.
# Writes $OUT/steps-per-launch.json. Usage (GPU machine): OUT=dir [STEPS=n]
#   validation/lab/steps-per-launch.sh
cd "$(dirname "$0")/../.." || exit 2
source validation/lab/lab-start.sh steps-per-launch
STEPS="${STEPS:-10}"
source validation/lab/build-targets.sh roofline-cuda roofkit_inject
echo "built at $SECONDS s"
source validation/lab/timed.sh
train=(python3 validation/apps/train_step.py)
gpt=(python3 validation/apps/gpt_train.py)
all=(env ROOFKIT_REPLAY_PHASES=1 timeout 280 "$BUILD/tools/roofline-cuda" profile -q --sample all
  --profile-from-start off)
timed first "${all[@]}" -o $W/first.json -- "${train[@]}" --steps 1
timed train_alone1 "${train[@]}" --steps "$STEPS"
for r in 1 2; do
  timed train$r "${all[@]}" -o $W/train$r.json -- "${train[@]}" --steps "$STEPS"
done
timed train_alone2 "${train[@]}" --steps "$STEPS"
timed train_one "${all[@]}" -o $W/train_one.json -- "${train[@]}" --steps 1
timed gpt_alone "${gpt[@]}" --steps "$STEPS"
timed gpt "${all[@]}" -o $W/gpt.json -- "${gpt[@]}" --steps "$STEPS"
python3 validation/lab/per_launch_json.py $W train_alone1,train_alone2,gpt_alone \
  first,train1,train2,train_one,gpt | tee $OUT/steps-per-launch.json
tar czf $OUT/steps-per-launch-logs.tgz -C $W --exclude=cache --exclude='*.json' . 2>/dev/null
echo "finished at $SECONDS s"

#!/usr/bin/env bash
# The profiler's one-time set-up against its cost per launch (issue 39), one device call: builds
# this tree, optionally runs the profile_app and profiler_counts GPU tests (TESTS=1), then with
# every launch profiled (--sample all, ROOFKIT_REPLAY_PHASES=1): one step of the training step
# (its region, --profile-from-start off) four times, alternately with an empty cache directory
# (the metric set is worked out and cached) and with the file that run left (read back); STEPS
# steps (default 5) of it, every launch of the process; five steps of the GPT loop. Each run's
# profile_setup_s, overhead per launch with and without the set-up, and phases; the applications
# alone.
# Writes $OUT/setup-split.json. Usage (GPU machine): OUT=dir [STEPS=n] [TESTS=1]
#   validation/lab/setup-split.sh
cd "$(dirname "$0")/../.." || exit 2
source validation/lab/lab-start.sh setup-split
source validation/lab/build-targets.sh roofline-cuda roofkit_inject roofkit_gpu_tests
echo "built at $SECONDS s"
if [ "${TESTS:-0}" = 1 ]; then
  timeout 240 ctest --test-dir "$BUILD" -L gpu -R 'profile_app|profiler_counts' \
    --output-on-failure >"$OUT/gpu-tests.log" 2>&1
  echo "gpu tests rc=$? $(grep -E 'tests passed|tests failed' "$OUT/gpu-tests.log")"
  grep -B2 -A25 -E 'Failure|\*\*\*Failed|Timeout' "$OUT/gpu-tests.log" | head -60
  echo "tests done at $SECONDS s"
fi
source validation/lab/timed.sh
train=(python3 validation/apps/train_step.py)
gpt=(python3 validation/apps/gpt_train.py --steps 5)
all=(env ROOFKIT_REPLAY_PHASES=1 timeout 200 "$BUILD/tools/roofline-cuda" profile -q --sample all)
timed train1_alone1 "${train[@]}" --steps 1
timed train1_alone2 "${train[@]}" --steps 1
for r in 1 2; do
  rm -f "$XDG_CACHE_HOME/roofkit"/metric-config-* # the roofs stay: only the set-up differs
  for c in cold cached; do
    timed train1_${c}$r "${all[@]}" --profile-from-start off -o $W/train1_${c}$r.json -- \
      "${train[@]}" --steps 1
  done
done
timed trainN_alone "${train[@]}" --steps "${STEPS:-5}"
timed trainN "${all[@]}" -o $W/trainN.json -- "${train[@]}" --steps "${STEPS:-5}"
timed gpt_alone "${gpt[@]}"
timed gpt "${all[@]}" -o $W/gpt.json -- "${gpt[@]}"
python3 validation/lab/per_launch_json.py $W train1_alone1,train1_alone2,trainN_alone,gpt_alone \
  train1_cold1,train1_cached1,train1_cold2,train1_cached2,trainN,gpt | tee $OUT/setup-split.json
tar czf $OUT/setup-split-logs.tgz -C $W --exclude=cache --exclude='*.json' . 2>/dev/null
echo "finished at $SECONDS s"

#!/usr/bin/env bash
# Lab (issue 39), one device call: in which steps the profiled launches fall. The GPT loop and the
# MLP-Mixer step, 30 measured steps after their 2 warm-up steps, under profile with the defaults
# and --records; each profiled launch's index over the run's launches a step (0-1 the warm-up,
# 2-31 the measured steps; the last also holds the checks after the timing).
# Writes $OUT/profiled-by-step.json.
# Usage (GPU machine): OUT=dir REV=rev validation/lab/profiled-by-step.sh
cd "$(dirname "$0")/../.." || exit 2
source validation/lab/lab-start.sh profiled-by-step
source validation/lab/build-targets.sh roofline-cuda roofkit_inject
for app in gpt_train train_step; do
  $BUILD/tools/roofline-cuda profile -q --records "$W/$app.jsonl" -o "$W/$app.json" -- \
    python3 validation/apps/$app.py --steps 30 >"$OUT/$app.out" 2>&1
  echo "$app rc=$?"
done
python3 validation/lab/profiled_by_step_json.py "$W" "${REV:-unknown}" >"$OUT/profiled-by-step.json"
cat "$OUT/profiled-by-step.json"

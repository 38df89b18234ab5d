#!/usr/bin/env bash
# Lab (issue 39), one device call: in which steps the profiled launches fall. The GPT loop and the
# MLP-Mixer step, 30 measured steps after their 2 warm-up steps, under profile with the defaults
# and --records; each profiled launch's index divided by the run's launches over its 32 steps
# (0-1 the warm-up, 2-31 the measured steps; the last also holds the checks after the timing).
# Prints one line per application.
# Usage (GPU machine): OUT=dir validation/lab/profiled-by-step.sh
cd "$(dirname "$0")/../.." || exit 2
source validation/lab/lab-start.sh profiled-by-step
source validation/lab/build-targets.sh roofline-cuda roofkit_inject
for app in gpt_train train_step; do
  $BUILD/tools/roofline-cuda profile -q --records "$W/$app.jsonl" -o "$W/$app.json" -- \
    python3 validation/apps/$app.py --steps 30 >"$OUT/$app.out" 2>&1
  echo "$app rc=$?"
  python3 - "$W/$app.jsonl" "$W/$app.json" <<'PY'
import json, sys
records = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
n = json.load(open(sys.argv[2]))["profile"]["total_launches"]
per = n / 32
steps = {}
for r in records:
    if "index" in r and "counters" in r:
        steps[int(r["index"] // per)] = steps.get(int(r["index"] // per), 0) + 1
print(sys.argv[1].split("/")[-1], "launches", n, "per step ~", round(per, 1), "profiled",
      sum(steps.values()), "by step", dict(sorted(steps.items())))
PY
done

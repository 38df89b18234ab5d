#!/usr/bin/env bash
# A/B of the counter-data image (issue 39), one device call: builds this tree, then profiles one
# step of the training step with every launch profiled (--sample all, ROOFKIT_REPLAY_PHASES=1)
# with CUPTI's image (A: a value per unit instance of every raw counter, about 0.6 MiB a range on
# GH100) and with the image of totals only (B: ROOFKIT_LAB_TOTALS_IMAGE=1, a few KiB a range), in
# the order A, B, A, B, and compares the record logs launch by launch
# (validation/lab/records_diff.py); then five steps of the GPT loop under B at --replay-batch 256.
# Writes $OUT/ab.json (per run: profiler time per launch and the replay phases; the four diffs)
# and the logs. Ran on d062254's working tree, where the library read the lab switch; since
# d062254 the totals image is the default (CUPTI's own only for a max or min rollup), so A now
# needs that switch put back. Usage (GPU machine): OUT=dir validation/lab/totals-image-ab.sh
set -uo pipefail
ulimit -c 0
cd "$(dirname "$0")/../.." || exit 2
source scripts/cuda-env.sh
T0=$(date +%s)
el() { echo "[$(( $(date +%s) - T0 )) s] $*"; }
W=/tmp/ab; mkdir -p $W
export XDG_CACHE_HOME=$W/cache
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee $W/device.txt
cmake -S . -B build/gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  "-DCMAKE_CUDA_COMPILER=$CUDA_HOME/bin/nvcc" >$W/conf.log 2>&1 &&
  cmake --build build/gpu -j 16 --target roofline-cuda roofkit_inject >$W/build.log 2>&1
echo "build rc=$?"; tail -2 $W/build.log
el built
one=(python3 validation/apps/train_step.py --steps 1)
run() { # NAME ENV... -- profile options...
  local name=$1; shift
  local s; s=$(date +%s.%N)
  env "$@" >$W/$name.out 2>$W/$name.err
  echo "$name rc=$? wall $(awk -v a=$s -v b="$(date +%s.%N)" 'BEGIN{print b-a}') s"
}
prof=(build/gpu/tools/roofline-cuda profile -q --sample all)
for i in 1 2; do
  run A$i ROOFKIT_REPLAY_PHASES=1 timeout 150 "${prof[@]}" --profile-from-start off \
    --records $W/A$i.records.jsonl -o $W/A$i.json -- "${one[@]}"
  run B$i ROOFKIT_LAB_TOTALS_IMAGE=1 ROOFKIT_REPLAY_PHASES=1 timeout 150 "${prof[@]}" \
    --profile-from-start off --records $W/B$i.records.jsonl -o $W/B$i.json -- "${one[@]}"
done
el ab
run G5 ROOFKIT_LAB_TOTALS_IMAGE=1 ROOFKIT_REPLAY_PHASES=1 timeout 200 "${prof[@]}" \
  --replay-batch 256 -o $W/G5.json -- python3 validation/apps/gpt_train.py --steps 5
el gpt
python3 - $W <<'PY' | tee $OUT/ab.json
import json, re, subprocess, sys
sys.path.insert(0, "validation/lab")
from replay_phases import phases, records_diff
w = sys.argv[1]
out = {"device": open(w + "/device.txt").read().strip(), "runs": {}}
for v in ("A1", "B1", "A2", "B2", "G5"):
    try:
        p = json.load(open(f"{w}/{v}.json"))["profile"]
        r = {k: p.get(k) for k in ("profiled_launches", "inferred_launches", "profile_overhead_s",
                                   "profile_overhead_per_launch_s")}
        r["ms_per_profiled_launch"] = phases(f"{w}/{v}.err")
        out["runs"][v] = r
    except Exception as e:
        out["runs"][v] = {"error": str(e), "stderr_tail": open(f"{w}/{v}.err").read()[-1500:]}
for a, b in (("A1", "B1"), ("A2", "B2"), ("A1", "A2"), ("B1", "B2")):
    out[f"diff_{a}_{b}"] = records_diff(f"{w}/{a}.records.jsonl", f"{w}/{b}.records.jsonl")
print(json.dumps(out, indent=1))
PY
tar czf $OUT/ab-logs.tgz -C $W --exclude=cache --exclude='*.json' . 2>/dev/null
el finished

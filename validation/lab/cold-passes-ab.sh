#!/usr/bin/env bash
# A/B of the pass layout (issue 39), one device call: builds this tree (B, everything) and an
# earlier revision unpacked in .dev/before (A, roofline-cuda only; made here with
# `git archive REV | tar -x -C .dev/before`, then carried), runs B's GPU tests of the profiler and
# of profile, then one step of the training step with every launch profiled
# (--sample all, ROOFKIT_REPLAY_PHASES=1) under A, B, A, B, and compares the record logs launch by
# launch (validation/lab/records_diff.py). Writes $OUT/ab.json (per run: profiler time per launch,
# the passes flushed, the replay phases; the four diffs), $OUT/gpu-tests.xml and the logs.
# Usage (GPU machine): OUT=dir validation/lab/cold-passes-ab.sh
set -uo pipefail
ulimit -c 0
cd "$(dirname "$0")/../.." || exit 2
source scripts/cuda-env.sh
T0=$(date +%s)
el() { echo "[$(( $(date +%s) - T0 )) s] $*"; }
W=/tmp/ab; mkdir -p $W
export XDG_CACHE_HOME=$W/cache
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee $W/device.txt
cfg=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 "-DCMAKE_CUDA_COMPILER=$CUDA_HOME/bin/nvcc")
( cmake -S . -B build/gpu "${cfg[@]}" >$W/confB.log 2>&1 && cmake --build build/gpu -j 12 >$W/buildB.log 2>&1; echo "B build rc=$?" ) &
( cd .dev/before && cmake -S . -B build "${cfg[@]}" >$W/confA.log 2>&1 && cmake --build build -j 4 --target roofline-cuda >$W/buildA.log 2>&1; echo "A build rc=$?" ) &
wait
el built
tail -3 $W/buildB.log; tail -3 $W/buildA.log
timeout 240 ctest --test-dir build/gpu -L gpu -R "profiler_counts|profile_app" --output-junit $OUT/gpu-tests.xml >$W/gpu-tests.log 2>&1
echo "gpu tests rc=$?"; grep -E "tests passed|Failed|\*\*\*" $W/gpu-tests.log | head -20
el tests
grep -A3 "only_the_cold_passes\|cache_control_all_and_none" $W/gpu-tests.log | grep -E "bench set|cache control" | head
one=(python3 validation/apps/train_step.py --steps 1)
s=$(date +%s.%N); "${one[@]}" >$W/alone.out 2>&1; echo "alone rc=$? $(awk -v a=$s -v b="$(date +%s.%N)" 'BEGIN{print b-a}') s"
for i in 1 2; do
  for v in A B; do
    rc=build/gpu/tools/roofline-cuda; [ $v = A ] && rc=.dev/before/build/tools/roofline-cuda
    s=$(date +%s.%N)
    ROOFKIT_REPLAY_PHASES=1 timeout 150 $rc profile -q --sample all --profile-from-start off \
      --records $W/$v$i.records.jsonl -o $W/$v$i.json -- "${one[@]}" >$W/$v$i.out 2>$W/$v$i.err
    echo "$v$i rc=$? wall $(awk -v a=$s -v b="$(date +%s.%N)" 'BEGIN{print b-a}') s"
  done
done
el ab
python3 - $W <<'PY' | tee $OUT/ab.json
import json, re, subprocess, sys
sys.path.insert(0, "validation/lab")
from replay_phases import phases, records_diff
w = sys.argv[1]
out = {"device": open(w + "/device.txt").read().strip(), "runs": {}}
for v in ("A1", "B1", "A2", "B2"):
    try:
        j = json.load(open(f"{w}/{v}.json"))
        p = j["profile"]
        r = {k: p.get(k) for k in ("profiled_launches", "inferred_launches", "profile_overhead_s",
                                   "profile_overhead_per_launch_s")}
        r["cache_control_passes"] = j["context"].get("extra", {}).get("cache_control_passes")
        r["ms_per_profiled_launch"] = phases(f"{w}/{v}.err")
        out["runs"][v] = r
    except Exception as e:
        out["runs"][v] = {"error": str(e)}
for a, b in (("A1", "B1"), ("A2", "B2"), ("A1", "A2"), ("B1", "B2")):
    out[f"diff_{a}_{b}"] = records_diff(f"{w}/{a}.records.jsonl", f"{w}/{b}.records.jsonl")
print(json.dumps(out, indent=1))
PY
tar czf $OUT/ab-logs.tgz -C $W --exclude=cache --exclude='*.log' . 2>/dev/null
cp $W/gpu-tests.log $OUT/ 2>/dev/null
el finished

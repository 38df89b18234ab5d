#!/usr/bin/env bash
# A/B of the batch checkpoint's restore (issue 39; tried, not kept), one device call: builds this
# tree, then profiles with every launch profiled (--sample all, ROOFKIT_REPLAY_PHASES=1, a record
# log) with CUPTI's full restore before each pass (A) and with its transfer optimisation, which
# restores only the memory blocks that changed (B), in the order A, B, A, B: five steps of the GPT
# loop at --replay-batch 256 (its losses against the run alone), then one step of the training
# step with the defaults. B needs a temporary patch of lib/inject/injector.cpp, not kept: where a
# batch's checkpoint is set up, `b.checkpoint.optimizations =
# NV::Cupti::Checkpoint::CUPTI_CHECKPOINT_OPT_TRANSFER;` when ROOFKIT_LAB_CHECKPOINT_TRANSFER is
# set. Record logs compared launch by launch (validation/lab/records_diff.py). Writes
# $OUT/transfer.json and the logs. Usage (GPU machine): OUT=dir validation/lab/checkpoint-transfer-ab.sh
set -uo pipefail
ulimit -c 0
cd "$(dirname "$0")/../.." || exit 2
OUT="$(mkdir -p "${OUT:-out}" && cd "${OUT:-out}" && pwd)"
BUILD="${BUILD:-build/gpu}"
W=/tmp/transfer; mkdir -p $W
export XDG_CACHE_HOME=$W/cache
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader \
  | tee $W/device.txt
source validation/lab/build-targets.sh roofline-cuda roofkit_inject
gpt=(python3 validation/apps/gpt_train.py --steps 5)
mixer=(python3 validation/apps/train_step.py --steps 1)
source validation/lab/timed.sh
prof() { # NAME VARIANT options... -- command...
  local name=$1 v=$2; shift 2
  local sw=(); [ "$v" = B ] && sw=(ROOFKIT_LAB_CHECKPOINT_TRANSFER=1)
  timed $name env "${sw[@]}" ROOFKIT_REPLAY_PHASES=1 timeout 200 "$BUILD/tools/roofline-cuda" \
    profile -q --sample all --records $W/$name.records.jsonl -o $W/$name.json "$@"
}
timed gpt_alone "${gpt[@]}"
for i in 1 2; do
  for v in A B; do prof gpt_$v$i $v --replay-batch 256 -- "${gpt[@]}"; done
done
for i in 1 2; do
  for v in A B; do prof mixer_$v$i $v --profile-from-start off -- "${mixer[@]}"; done
done
python3 - $W <<'PY' | tee $OUT/transfer.json
import json, re, subprocess, sys
sys.path.insert(0, "validation/lab")
from replay_phases import phases, records_diff
w = sys.argv[1]
def losses(path):
    for line in open(path):
        if "losses" in line:
            return line.split("losses", 1)[1].split()
    return None
out = {"device": open(w + "/device.txt").read().strip(),
       "gpt_alone": {"wall_s": float(open(f"{w}/gpt_alone.wall").read()),
                     "losses": losses(f"{w}/gpt_alone.out")}, "runs": {}}
names = [f"{a}_{v}{i}" for a in ("gpt", "mixer") for i in (1, 2) for v in "AB"]
for n in names:
    try:
        p = json.load(open(f"{w}/{n}.json"))["profile"]
        r = {k: p.get(k) for k in ("profiled_launches", "profile_overhead_s",
                                   "profile_overhead_per_launch_s")}
        r["wall_s"] = float(open(f"{w}/{n}.wall").read())
        if n.startswith("gpt"):
            r["losses_equal_to_alone"] = losses(f"{w}/{n}.out") == out["gpt_alone"]["losses"]
        r["ms_per_profiled_launch"] = phases(f"{w}/{n}.err")
        out["runs"][n] = r
    except Exception as e:
        out["runs"][n] = {"error": str(e), "stderr_tail": open(f"{w}/{n}.err").read()[-1500:]}
for app in ("gpt", "mixer"):
    for a, b in (("A1", "B1"), ("A2", "B2"), ("A1", "A2"), ("B1", "B2")):
        out[f"diff_{app}_{a}_{b}"] = records_diff(
            f"{w}/{app}_{a}.records.jsonl", f"{w}/{app}_{b}.records.jsonl",
            ("matched", "sass_counts_unequal", "dram_outside_1pct_or_64k"))
print(json.dumps(out, indent=1))
PY
tar czf $OUT/transfer-logs.tgz -C $W --exclude=cache --exclude='*.records.jsonl' . 2>/dev/null

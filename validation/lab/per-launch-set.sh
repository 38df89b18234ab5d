#!/usr/bin/env bash
# The per-launch metric set (issue 39), one device call: two measured steps of the training step
# with every launch profiled (later launches of a measured shape on the per-launch set), the
# counter set of each launch from the record log, ncu on the same two steps with our SASS counter
# names and twice with the two DRAM metrics alone (one pass); then ten steps twice under
# --sample all with the applications alone. profile-compare.py judges the SASS counts; the DRAM
# values are compared afterwards with profile-compare.py against each ncu_dram*.out.
# Writes $OUT/per-launch-set.tgz (the work directory). Usage (GPU machine): OUT=dir
#   validation/lab/per-launch-set.sh
cd "$(dirname "$0")/../.." || exit 2
ROOT=$(mkdir -p "${OUT:-out}" && cd "${OUT:-out}" && pwd)
export OUT=$ROOT/x BUILD=${BUILD:-build/gpu}
source validation/lab/lab-start.sh per-launch-set
source validation/lab/build-targets.sh roofline-cuda roofkit_inject
source validation/lab/timed.sh
echo "built at $SECONDS s"
RC=$BUILD/tools/roofline-cuda
two=(python3 validation/apps/train_step.py --steps 2)
ROOFKIT_REPLAY_PHASES=1 timeout 200 $RC profile -q --sample all --profile-from-start off \
  --records $W/ours.records.jsonl -o $W/ours.json -- "${two[@]}" >$W/ours.out 2>$W/ours.err
rc=$?
echo "ours rc=$rc at $SECONDS s"
python3 - "$W/ours.records.jsonl" <<'PY' | tee $W/ours-sets.txt
import json, sys, collections
c = collections.Counter()
for line in open(sys.argv[1]):
    try: j = json.loads(line)
    except Exception: continue
    if j.get("type") == "launch": c[j.get("counter_set", "full")] += 1
print(dict(c))
PY
grep -a "switch\|warning" $W/ours.err | head -5
if [ $rc -ne 0 ]; then tail -40 $W/ours.err; exit 1; fi
sass=$(python3 validation/scripts/ncu_csv.py metrics $W/ours.records.jsonl | tr ',' '\n' | grep -E '__sass_' | paste -sd,)
ncu_line=(timeout 150 ncu --profile-from-start off --cache-control all --clock-control none --csv --page raw --print-units base)
"${ncu_line[@]}" --metrics "$sass" "${two[@]}" >$W/ncu_sass.out 2>$W/ncu_sass.err; echo "ncu sass rc=$? at $SECONDS s"
for i in 1 2; do
  "${ncu_line[@]}" --metrics dram__bytes_read.sum,dram__bytes_write.sum "${two[@]}" >$W/ncu_dram$i.out 2>$W/ncu_dram$i.err
  echo "ncu dram$i rc=$? at $SECONDS s"
done
all=(env ROOFKIT_REPLAY_PHASES=1 timeout 120 "$RC" profile -q --sample all --profile-from-start off)
train=(python3 validation/apps/train_step.py --steps 10)
timed train_alone1 "${train[@]}"
for r in 1 2; do timed train$r "${all[@]}" -o $W/train$r.json -- "${train[@]}"; done
timed train_alone2 "${train[@]}"
python3 validation/lab/per_launch_json.py $W train_alone1,train_alone2 train1,train2 >$W/steps.json
echo "runs done at $SECONDS s"
python3 validation/scripts/profile-compare.py $W/ours.json $W/ncu_sass.out --dram $W/ncu_dram1.out >$W/compare.json 2>$W/compare.err
python3 -c "
import sys, json; sys.path.insert(0, 'validation/scripts'); import ncu_csv
print(json.dumps(ncu_csv.dram_agreement('$W/ncu_dram1.out', '$W/ncu_dram2.out')))" >$W/ncu_self.json 2>&1
cat $W/ncu_self.json
python3 -c "
import json; c = json.load(open('$W/compare.json')); print({k: v for k, v in c.items() if not isinstance(v, (list, dict))})" 2>&1 | head -5
rm -f $W/train1.json $W/train2.json
tar czf $ROOT/per-launch-set.tgz -C $W --exclude=cache .
echo "finished at $SECONDS s"

#!/usr/bin/env bash
# A/B of the per-launch set's switch planner (issue 39), one device call: N = this tree, O = this
# tree with PATCH (the planner's change, git diff c23d544 d536a77 -- lib/inject) reversed (a
# switch whenever a batch may carry the per-launch set). GPU tests of profile and the profiler
# under N; one step of the training step O, N, O, N with record diffs; ten steps O and N; the
# applications alone. Writes $OUT/ab.json (per_launch_json.py), $OUT/gpu-tests.xml and the logs.
# Usage (GPU machine): PATCH=file OUT=dir validation/lab/planner-ab.sh
PATCH=$(cd "$(dirname "${PATCH:?PATCH=file: the change to reverse}")" && pwd)/$(basename "$PATCH")
cd "$(dirname "$0")/../.." || exit 2
ROOT=$(mkdir -p "$OUT" && cd "$OUT" && pwd)
export OUT=$ROOT BUILD=build/gpu
source validation/lab/lab-start.sh planner-ab
source validation/lab/build-targets.sh roofline-cuda roofkit_inject roofkit_gpu_tests
echo "built N at $SECONDS s"
rm -rf /tmp/old && mkdir /tmp/old && tar cf - --exclude=./build . | tar xf - -C /tmp/old
( cd /tmp/old && patch -s -R -p1 <"$PATCH" && BUILD=build/gpu OUT=$ROOT/old && mkdir -p $OUT &&
  source validation/lab/build-targets.sh roofline-cuda roofkit_inject ) || { echo "old build failed"; exit 1; }
echo "built O at $SECONDS s"
source validation/lab/profile-gpu-tests.sh 200
source validation/lab/timed.sh
train=(python3 validation/apps/train_step.py)
run() {
  local rc=$1
  shift
  env ROOFKIT_REPLAY_PHASES=1 timeout 150 "$rc" profile -q --sample all --profile-from-start off "$@"
}
timed alone "${train[@]}" --steps 1
for i in 1 2; do
  timed O$i run /tmp/old/build/gpu/tools/roofline-cuda --records $W/O$i.records.jsonl -o $W/O$i.json -- "${train[@]}" --steps 1
  timed N$i run $BUILD/tools/roofline-cuda --records $W/N$i.records.jsonl -o $W/N$i.json -- "${train[@]}" --steps 1
done
timed steps_alone "${train[@]}" --steps 10
timed stepsO run /tmp/old/build/gpu/tools/roofline-cuda -o $W/stepsO.json -- "${train[@]}" --steps 10
timed stepsN run $BUILD/tools/roofline-cuda -o $W/stepsN.json -- "${train[@]}" --steps 10
for r in O1 N1 O2 N2 stepsO stepsN; do echo "== $r"; grep -a "profiler time\|switches" $W/$r.err; done
python3 validation/lab/per_launch_json.py $W alone,steps_alone O1,N1,O2,N2,stepsO,stepsN \
  O1:N1,O2:N2,O1:O2,N1:N2 > $ROOT/ab.json
python3 -c "
import json; d=json.load(open('$ROOT/ab.json'))
for k,v in d.items():
  if k.startswith('diff'): print(k, {a: b for a, b in v.items() if not isinstance(b, dict)})"
tar czf $ROOT/ab-logs.tgz -C $W --exclude=cache --exclude='*.json' . 2>/dev/null
echo "finished at $SECONDS s"

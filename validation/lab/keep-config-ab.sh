#!/usr/bin/env bash
# Lab A/B (issue 39), one device call: whether the first pass of each set of passes (about 50 ms)
# is the configuration's cost. A = this tree; B = with ROOFKIT_LAB_KEEP_CONFIG=1 under
# keep-config.patch (not kept): kept_passes skips cuptiRangeProfilerSetConfig when the variable is
# set and the counter image and range mode are those of its last call (the image re-blanked in
# place). One step of the training step A, B, A, B with record diffs; ten steps A, B.
# Usage (GPU machine): patch -p1 < validation/lab/keep-config.patch; OUT=dir
#   validation/lab/keep-config-ab.sh
cd "$(dirname "$0")/../.." || exit 2
ROOT=$(mkdir -p "$OUT" && cd "$OUT" && pwd)
export OUT=$ROOT BUILD=build/gpu
source validation/lab/lab-start.sh keepcfg
source validation/lab/build-targets.sh roofline-cuda roofkit_inject
source validation/lab/timed.sh
echo "built at $SECONDS s"
RC=$BUILD/tools/roofline-cuda
P=(env ROOFKIT_REPLAY_PHASES=1 timeout 150 $RC profile -q --sample all --profile-from-start off)
one=(python3 validation/apps/train_step.py --steps 1)
ten=(python3 validation/apps/train_step.py --steps 10)
timed oneA1 "${P[@]}" --records $W/oneA1.jsonl -o $W/oneA1.json -- "${one[@]}"
timed oneB1 env ROOFKIT_LAB_KEEP_CONFIG=1 "${P[@]}" --records $W/oneB1.jsonl -o $W/oneB1.json -- "${one[@]}"
timed oneA2 "${P[@]}" --records $W/oneA2.jsonl -o $W/oneA2.json -- "${one[@]}"
timed oneB2 env ROOFKIT_LAB_KEEP_CONFIG=1 "${P[@]}" --records $W/oneB2.jsonl -o $W/oneB2.json -- "${one[@]}"
for r in oneA1 oneB1 oneA2 oneB2; do echo "== $r"; grep -a "profiler time\|switch\|first passes\|pass start \|warning\|error" $W/$r.err | head -8; done
python3 validation/lab/records_diff.py $W/oneA1.jsonl $W/oneB1.jsonl > $W/diff_A1_B1.json; head -c 600 $W/diff_A1_B1.json; echo
python3 validation/lab/records_diff.py $W/oneA1.jsonl $W/oneA2.jsonl > $W/diff_A1_A2.json; head -c 600 $W/diff_A1_A2.json; echo
python3 validation/lab/records_diff.py $W/oneB1.jsonl $W/oneB2.jsonl > $W/diff_B1_B2.json; head -c 600 $W/diff_B1_B2.json; echo
timed tenA "${P[@]}" -o $W/tenA.json -- "${ten[@]}"
timed tenB env ROOFKIT_LAB_KEEP_CONFIG=1 "${P[@]}" -o $W/tenB.json -- "${ten[@]}"
timed ten_alone "${ten[@]}"
for r in tenA tenB; do echo "== $r"; grep -a "profiler time\|switch\|first passes\|pass start \|warning\|error" $W/$r.err | head -8; done
rm -f $W/*.json.tmp $W/tenA.json $W/tenB.json
gzip -f $W/*.jsonl
tar czf $ROOT/keepcfg.tgz -C $W --exclude=cache .
echo "finished at $SECONDS s"

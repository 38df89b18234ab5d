#!/usr/bin/env bash
# The ResNet-50 training step from the start with the defaults (one step after its warm-up, cuDNN
# trying its engines first): the launches neither profiled nor inferred, by reason and kernel,
# and what ended the batches (ROOFKIT_REPLAY_PHASES=1).
# Usage: OUT=dir validation/lab/unprofiled-reasons.sh   (on the GPU machine, from the root)
cd "$(dirname "$0")/../.." || exit 2
ROOT=$(mkdir -p "${OUT:-out}" && cd "${OUT:-out}" && pwd)
export OUT=$ROOT/x BUILD=build/gpu
source validation/lab/lab-start.sh unprofiled
source validation/lab/build-targets.sh roofline-cuda roofkit_inject
echo "built at $SECONDS s"
RC=$BUILD/tools/roofline-cuda
ROOFKIT_REPLAY_PHASES=1 timeout 150 $RC profile -q --records $ROOT/def.records.jsonl -o $ROOT/def.json -- python3 validation/apps/resnet_train.py --steps 1 > $ROOT/def.out 2> $ROOT/def.err
echo "rc=$? at $SECONDS s"
python3 - $ROOT/def.json <<'PY'
import json, sys, collections
p = json.load(open(sys.argv[1]))["profile"]
print({k: p.get(k) for k in ("total_launches", "profiled_launches", "inferred_launches")})
c = collections.Counter()
for s in p.get("not_profiled", []):
    c[s["reason"]] += s["launches"]
print("not profiled by reason:", dict(c))
for s in sorted(p.get("not_profiled", []), key=lambda s: -s["launches"])[:8]:
    print("  ", s["launches"], s["reason"], s["name"][:110])
print("errors:", json.dumps(p.get("errors"))[:600])
PY
grep -E "batches ended by|replay phases over|first passes|launch calls  |pass stop|sets of passes" $ROOT/def.err | head -30
gzip -f $ROOT/def.json $ROOT/def.records.jsonl
echo "finished at $SECONDS s"

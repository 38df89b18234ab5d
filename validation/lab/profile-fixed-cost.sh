#!/usr/bin/env bash
# Lab (issue 39): where the fixed cost of `roofline-cuda profile` goes on the training step. Runs
# the application alone, under profile with the defaults, with nothing selected (--kernel
# nomatch_zz), without kernel activity records, with theoretical roofs, a small PyTorch program
# under the tool, the injection library without the tool (CUDA_INJECTION64_PATH), and --sample
# all on 2 steps, all with ROOFKIT_REPLAY_PHASES=1 (callbacks, module loads, the injection's span
# in epoch nanoseconds). Run on the GPU machine from the repository root, with OUT set:
#   OUT=dir validation/lab/profile-fixed-cost.sh      -> validation/data/profile-fixed-cost-h200.json
set -uo pipefail
source scripts/cuda-env.sh
t0=$(date +%s)
cmake -S . -B build/gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCMAKE_CUDA_COMPILER=$CUDA_HOME/bin/nvcc >/dev/null || exit 1
cmake --build build/gpu -j16 --target roofline-cuda roofkit_inject > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build $(( $(date +%s) - t0 )) s"
R=build/gpu/tools/roofline-cuda
LIB=$(find build/gpu -name libroofkit_inject.so | head -1)
APP="python3 validation/apps/train_step.py --steps 5"
TINY=(python3 -c "import torch; print(torch.ones(4, device='cuda').sum().item())")
ns() { date +%s%N; }
run() { # label, command...
  local label=$1; shift
  local a=$(ns)
  "$@" > $OUT/$label.out 2> $OUT/$label.err
  local rc=$?
  local b=$(ns)
  echo "$label rc=$rc wall_ms=$(( (b - a) / 1000000 )) start_ns=$a end_ns=$b"
  grep -E "module loads|injection started|first passes|pass start|counter images|memory restore|pass stop|cache flush|checkpoint save|replay phases|profiled \(" $OUT/$label.err | sed 's/^/   /'
}
$APP > /dev/null 2>&1   # cold start
run tiny_alone "${TINY[@]}"
run alone $APP
run alone2 $APP
CUDA_MODULE_LOADING=EAGER run alone_eager $APP
export ROOFKIT_REPLAY_PHASES=1
run tool_default_warm $R profile -q -o /tmp/w.json -- $APP
run tool_default $R profile -q -o /tmp/a.json -- $APP
run tool_nomatch $R profile -q --kernel 'nomatch_zz' -o /tmp/b.json -- $APP
ROOFKIT_PROFILE_ACTIVITY=off run tool_nomatch_noact $R profile -q --kernel 'nomatch_zz' -o /tmp/c.json -- $APP
run tool_nomatch_theo $R profile -q --ceilings theoretical --kernel 'nomatch_zz' -o /tmp/d.json -- $APP
run tiny_tool $R profile -q -o /tmp/e.json -- "${TINY[@]}"
run tiny_tool_nomatch $R profile -q --kernel nomatch_zz -o /tmp/f.json -- "${TINY[@]}"
ROOFKIT_PROFILE_RECORD=/tmp/raw.jsonl ROOFKIT_PROFILE_KERNEL=nomatch_zz CUDA_INJECTION64_PATH=$PWD/$LIB run raw_inject_nomatch $APP
ROOFKIT_PROFILE_RECORD=/tmp/raw2.jsonl CUDA_INJECTION64_PATH=$PWD/$LIB run raw_inject_default $APP
run tool_all2 $R profile -q --sample all -o /tmp/g.json -- python3 validation/apps/train_step.py --steps 2
python3 - <<'PY'
import json
def walk(o, path=""):
    if isinstance(o, dict):
        for k, v in o.items():
            if isinstance(v, (int, float)) and ("overhead" in k or k.endswith("launches")):
                print("  ", path + k, v)
            elif isinstance(v, dict):
                walk(v, path + k + ".")
for f in ["/tmp/a.json", "/tmp/b.json", "/tmp/g.json"]:
    try:
        print(f); walk(json.load(open(f)))
    except Exception as e:
        print(f, e)
PY
cd $OUT && tar czf fixed.tgz *.err *.out && rm -f *.err *.out build.txt
echo done

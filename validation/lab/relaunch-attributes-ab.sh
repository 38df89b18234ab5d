#!/usr/bin/env bash
# A re-issued launch with the function attributes of its own launch (lib/inject/launch_args.cpp)
# against the injector before that change, built side by side from this tree with
# relaunch-attributes.patch reversed: tests/apps/launch_kinds under each injector (rotate_span
# lowers its opt-in shared-memory attribute between two launches), the profile_app GPU tests,
# then the ResNet-50 training step (cuDNN's batch norms set the attribute before each launch)
# with every launch of one step profiled and, with the defaults, two steps; the not-profiled
# lines and the warnings that the application's memory may be wrong, counted.
# Usage: OUT=dir validation/lab/relaunch-attributes-ab.sh   (on the GPU machine, from the root)
cd "$(dirname "$0")/../.." || exit 2
ROOT=$(mkdir -p "${OUT:-out}" && cd "${OUT:-out}" && pwd)
export OUT=$ROOT/x BUILD=build/gpu
source validation/lab/lab-start.sh attr
source validation/lab/build-targets.sh roofline-cuda roofkit_inject roofkit_gpu_tests
echo "built at $SECONDS s"
rm -rf /tmp/old && mkdir /tmp/old && tar cf - --exclude=./build . | tar xf - -C /tmp/old
( cd /tmp/old && patch -s -R -p1 < validation/lab/relaunch-attributes.patch && BUILD=build/gpu \
  OUT=$ROOT/old && mkdir -p "$OUT" && source validation/lab/build-targets.sh roofkit_inject ) ||
  echo "old build failed"
RC=$BUILD/tools/roofline-cuda
LK=$BUILD/tests/apps/roofkit_app_launch_kinds
for which in old new; do
  lib=()
  [ $which = old ] && lib=(env ROOFKIT_INJECT_LIBRARY=/tmp/old/build/gpu/lib/libroofkit_inject.so)
  "${lib[@]}" timeout 120 $RC profile -q --sample all -o $ROOT/lk-$which.json -- $LK \
    > $ROOT/lk-$which.out 2> $ROOT/lk-$which.err
  echo "launch_kinds $which injector rc=$?"; tail -1 $ROOT/lk-$which.out
  grep -i "not profiled\|wrong" $ROOT/lk-$which.err | cut -c1-300 | head -4
done
timeout 240 ctest --test-dir "$BUILD" -L gpu -R "profile_app" --output-junit "$ROOT/gpu-tests.xml" \
  > "$ROOT/gpu-tests.log" 2>&1
echo "gpu tests rc=$? $(grep -E 'tests passed|tests failed' $ROOT/gpu-tests.log)"
app=(python3 validation/apps/resnet_train.py)
for run in "all --sample all" "def"; do
  set -- $run
  name=$1; shift
  steps=1; [ $name = def ] && steps=2
  timeout 200 $RC profile "$@" --profile-from-start off -o $ROOT/$name.json -- "${app[@]}" \
    --steps $steps > $ROOT/$name.out 2> $ROOT/$name.err
  echo "resnet $name rc=$?: $(grep -c 'not profiled' $ROOT/$name.err) not-profiled lines," \
    "$(grep -c 'may be wrong' $ROOT/$name.err) memory warnings"
  grep "roofline-cuda profile:" $ROOT/$name.err
done

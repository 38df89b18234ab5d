#!/usr/bin/env bash
# A/B of the profiler's cost on every launch once each shape is measured (issue 39), one device
# call: N = this tree, O = this tree with PATCH reversed, built side by side. The profile_app GPU
# tests under N; then ROUNDS (default 3) rounds, in turn within each, of the MLP-Mixer step (30
# steps; its measured steps after the warm-up) and 100,000 tiny launches (tests/apps/long_run.cu)
# alone, under O and under N, with the defaults. Writes $OUT/steady-ab.json.
# Usage (GPU machine): PATCH=file OUT=dir REV=rev [ROUNDS=n] validation/lab/steady-ab.sh
PATCH=$(cd "$(dirname "${PATCH:?PATCH=file: the change to reverse}")" && pwd)/$(basename "$PATCH")
cd "$(dirname "$0")/../.." || exit 2
ROOT=$(mkdir -p "$OUT" && cd "$OUT" && pwd)
export OUT=$ROOT BUILD=build/gpu
source validation/lab/lab-start.sh steady-ab
source validation/lab/build-targets.sh roofline-cuda roofkit_inject roofkit_gpu_tests \
  roofkit_app_long_run
echo "built N at $SECONDS s"
rm -rf /tmp/old && mkdir /tmp/old && tar cf - --exclude=./build . | tar xf - -C /tmp/old
( cd /tmp/old && patch -s -R -p1 <"$PATCH" && BUILD=build/gpu OUT=$ROOT/old && mkdir -p $OUT &&
  source validation/lab/build-targets.sh roofline-cuda roofkit_inject ) || { echo "old build failed"; exit 1; }
echo "built O at $SECONDS s"
TESTS=profile_app source validation/lab/profile-gpu-tests.sh 150
source validation/lab/timed.sh
LONG=$BUILD/tests/apps/roofkit_app_long_run
STEP=(python3 validation/apps/train_step.py --steps 30)
declare -A RC=([O]=/tmp/old/build/gpu/tools/roofline-cuda [N]=$BUILD/tools/roofline-cuda)
${RC[N]} profile -q -o $W/roofs.json -- "${STEP[@]}" >/dev/null 2>&1
for round in $(seq "${ROUNDS:-3}"); do
  timed step.alone.$round "${STEP[@]}"
  timed long.alone.$round "$LONG" 100000
  for v in O N; do
    timed step.$v.$round "${RC[$v]}" profile -q -o $W/s.json -- "${STEP[@]}"
    timed long.$v.$round "${RC[$v]}" profile -q -o $W/l.json -- "$LONG" 100000
  done
done
python3 validation/lab/steady_ab_json.py "$W" "${REV:-unknown}" >$ROOT/steady-ab.json
echo "finished at $SECONDS s"

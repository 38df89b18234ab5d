#!/usr/bin/env bash
# `profile --stalls` against Nsight Compute's warp-state statistics, on tests/apps/stalls.cu (a
# pointer chase and a barrier ring) and validation/apps/fft_blas_thrust.cu (cuBLAS, cuFFT,
# Thrust). Per application: the application alone, `profile`, and `profile --stalls` (wall
# times; the second run is the stall sampling); then `ncu --section WarpStateStats` on the same
# command (its hardware stall counters, per launch). validation/scripts/stalls_vs_ncu.py writes
# $OUT/stalls-vs-ncu-<gpu>.json: per kernel, roofkit's top stall reasons and limiter beside
# ncu's top stall reasons (cycles per issued instruction). Usage, on the GPU machine after a build
# with the tools and tests/apps:  OUT=dir REV=rev validation/scripts/stalls-check.sh BUILD
set -uo pipefail
ulimit -c 0
cd "$(dirname "$0")/../.." || exit 2
BUILD="${1:?usage: OUT=dir REV=rev validation/scripts/stalls-check.sh BUILD}"
OUT="$(mkdir -p "${OUT:-out/stalls}" && cd "${OUT:-out/stalls}" && pwd)"
W="$(mktemp -d)"
RC="$BUILD/tools/roofline-cuda"
NCU="$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | tail -1)"
NVCC="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
CAP="$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')"
"$NVCC" -O2 -arch="sm_${CAP:-90}" -o "$W/fft_blas_thrust" validation/apps/fft_blas_thrust.cu \
  -lcublas -lcufft || exit 1
timed() { # NAME COMMAND...: stdout/stderr in $W/NAME.{out,err}; "NAME rc seconds" in steps.txt
  local name=$1 a rc
  shift
  a=$(date +%s.%N)
  timeout -k 10 240 "$@" >"$W/$name.out" 2>"$W/$name.err"
  rc=$?
  echo "$name $rc $(awk -v a="$a" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')" \
    >>"$W/steps.txt"
}
for app in stalls fft_blas_thrust; do
  if [ $app = stalls ]; then cmd=("$BUILD/tests/apps/roofkit_app_stalls"); else
    cmd=("$W/fft_blas_thrust" --iterations 1); fi
  timed "$app.alone" "${cmd[@]}"
  timed "$app.profile" "$RC" profile -q -o "$W/$app.plain.json" -- "${cmd[@]}"
  timed "$app.stalls" "$RC" profile -q --stalls -o "$W/$app.json" -- "${cmd[@]}"
  for k in $(python3 -c "import json,sys; [print(k['display_name']) for k in json.load(open(sys.argv[1]))['kernels'] if 'diagnosis' in k]" "$W/$app.json" | tr ' ' '~'); do
    "$RC" report "$W/$app.json" --explain "${k//\~/ }" >>"$W/$app.explain.txt" 2>&1
  done
  timed "$app.ncu" "$NCU" --section WarpStateStats --clock-control none --csv --page raw \
    --print-units base --print-kernel-base mangled "${cmd[@]}"
done
python3 validation/scripts/stalls_vs_ncu.py "$W" "$OUT" "${REV:-unknown}" \
  "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"
rc=$?
tar czf "$OUT/stalls-logs.tgz" -C "$W" --exclude=fft_blas_thrust .
exit $rc

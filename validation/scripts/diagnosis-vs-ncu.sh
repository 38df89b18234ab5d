#!/usr/bin/env bash
# roofkit's diagnosis against Nsight Compute's rule results on four applications of our own
# (validation/apps: a CUDA C++ program on cuBLAS, cuFFT and Thrust; a torch.compile'd MLP; a
# ResNet-50 inference; an MLP-Mixer training step), for issue 37. Per application:
#   1. the application alone with its default iterations (wall time, exit code);
#   2. `roofline-cuda profile --profile-from-start off` on its one-iteration command (the
#      applications call cudaProfilerStart after their warm-up and cudaProfilerStop after the
#      measured iteration), with `--sample all --stalls` where the profiler has those options;
#   3. `ncu --set full --import-source no --clock-control none --profile-from-start off` on the
#      same command, then its details page (`--page details --csv`: sections and rule results)
#      and raw page (launch__* metrics and durations, base units) exported to CSV, kernels
#      named by their mangled names;
# then validation/scripts/diagnosis_vs_ncu.py matches the launches and writes
# $OUT/diagnosis-vs-ncu-<gpu>.json and .md, and the logs and exports go into
# $OUT/diagnosis-vs-ncu-logs.tgz (without the .ncu-rep reports, which are large).
# For the training step it also counts one default step's kernel launches (torch.profiler).
#
# Every step runs under a timeout, and the whole run within BUDGET_S seconds (default 470): a
# step that would start with less than 10 s left is skipped. steps.json in the logs (and the
# "steps" of each application in the JSON) gives each step's exit code, seconds, limit, and
# whether it timed out (also said on stderr).
#
# Usage (GPU machine, after a build):
#   OUT=dir [APPS="fft_blas_thrust compiled_mlp train_step cnn_infer"] [BUDGET_S=470] \
#     [TRAIN_ARGS="--depth 4"] validation/scripts/diagnosis-vs-ncu.sh BUILD_DIR
# TRAIN_ARGS are added to the training step's one-iteration command: depth 4 (about 250
# launches) keeps `ncu --set full` on every launch within the budget; the launch count of the
# default depth 12 is measured separately (step "count"). When the budget does not hold all
# four, run them in two calls with different APPS and OUT, unpack both logs and compare them
# together: validation/scripts/diagnosis_vs_ncu.py LOGDIR1 LOGDIR2 OUTDIR.
set -uo pipefail
ulimit -c 0
cd "$(dirname "$0")/../.." || exit 2
BUILD="${1:?usage: OUT=dir validation/scripts/diagnosis-vs-ncu.sh BUILD_DIR}"
OUT="$(mkdir -p "${OUT:-out/diagnosis-vs-ncu}" && cd "${OUT:-out/diagnosis-vs-ncu}" && pwd)"
W="$(mktemp -d)"
RC="$BUILD/tools/roofline-cuda"
NCU="$(command -v ncu ||
  ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | tail -1)"
NVCC="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
APPS="${APPS:-fft_blas_thrust compiled_mlp train_step cnn_infer}"
BUDGET_S="${BUDGET_S:-470}"
TRAIN_ARGS="${TRAIN_ARGS:---depth 4}"
START=$(date +%s)
: >"$W/steps.txt"

# step APP NAME MAX_S COMMAND...: runs COMMAND with stdout/stderr in $W/APP.NAME.{out,err}
# under min(MAX_S, time left), and records "APP NAME RC SECONDS LIMIT" in steps.txt.
step() {
  local app=$1 name=$2 max=$3
  shift 3
  local left=$((BUDGET_S - ($(date +%s) - START)))
  local limit=$((left < max ? left : max))
  if [ "$limit" -lt 10 ]; then
    echo "$app $name skipped 0 $limit" >>"$W/steps.txt"
    echo "diagnosis-vs-ncu: $app: step $name skipped (budget of $BUDGET_S s spent)" >&2
    return 125
  fi
  local a b rc
  a=$(date +%s.%N)
  timeout -k 10 "$limit" "$@" >"$W/$app.$name.out" 2>"$W/$app.$name.err"
  rc=$?
  b=$(date +%s.%N)
  local secs
  secs=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", b - a }')
  echo "$app $name $rc $secs $limit" >>"$W/steps.txt"
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    echo "diagnosis-vs-ncu: $app: step $name TIMED OUT after $limit s" >&2
  else
    echo "diagnosis-vs-ncu: $app: $name rc=$rc in $secs s" >&2
  fi
  return "$rc"
}

if [ -z "$NCU" ] || [ ! -x "$RC" ]; then
  echo "diagnosis-vs-ncu: needs ncu on PATH and $RC (build the tools first)" >&2
  exit 2
fi
SAMPLE=()
if "$RC" profile --help 2>&1 | grep -q -- '--sample'; then
  SAMPLE=(--sample all)
fi
# Warp-stall sampling (a second run of each application) where the profiler has it.
if "$RC" profile --help 2>&1 | grep -q -- '--stalls'; then
  SAMPLE+=(--stalls)
fi
CAP="$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')"
ARCH="sm_${CAP:-90}"

# The application's commands: default (wall time) and one iteration (both profilers).
commands() {
  case "$1" in
  fft_blas_thrust)
    DEFAULT=("$W/fft_blas_thrust")
    ONE=("$W/fft_blas_thrust" --iterations 1) ;;
  compiled_mlp | cnn_infer)
    DEFAULT=(python3 "validation/apps/$1.py")
    ONE=(python3 "validation/apps/$1.py" --iterations 1) ;;
  train_step)
    DEFAULT=(python3 validation/apps/train_step.py)
    # shellcheck disable=SC2206
    ONE=(python3 validation/apps/train_step.py --steps 1 --warmup 1 $TRAIN_ARGS) ;;
  *)
    echo "diagnosis-vs-ncu: unknown application '$1' (valid: fft_blas_thrust compiled_mlp" \
      "cnn_infer train_step)" >&2
    return 2 ;;
  esac
}

METRICS=launch__registers_per_thread,gpu__time_duration.sum,launch__grid_size,launch__block_size
METRICS+=,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem
METRICS+=,launch__occupancy_limit_blocks,launch__occupancy_limit_warps
METRICS+=,sm__warps_active.avg.pct_of_peak_sustained_active,launch__waves_per_multiprocessor
for app in $APPS; do
  commands "$app" || exit 2
done
CMDS="$W/commands.txt"
: >"$CMDS"
for app in $APPS; do
  commands "$app"
  if [ "$app" = fft_blas_thrust ]; then
    step "$app" build 300 "$NVCC" -O2 -arch="$ARCH" -o "$W/fft_blas_thrust" \
      validation/apps/fft_blas_thrust.cu -lcublas -lcufft || continue
  fi
  echo "$app default: ${DEFAULT[*]#"$W/"}" >>"$CMDS"
  echo "$app one iteration: ${ONE[*]#"$W/"}" >>"$CMDS"
  step "$app" plain 180 "${DEFAULT[@]}"
  if [ "$app" = train_step ]; then
    step "$app" count 120 python3 validation/apps/train_step.py --steps 1 --warmup 1 \
      --count-launches
  fi
  step "$app" profile 240 "$RC" profile --profile-from-start off "${SAMPLE[@]}" \
    -o "$W/$app.json" -- "${ONE[@]}"
  step "$app" ncu 300 "$NCU" --set full --import-source no --clock-control none \
    --profile-from-start off -f -o "$W/$app" "${ONE[@]}" || continue
  step "$app" details 120 "$NCU" --import "$W/$app.ncu-rep" --page details --csv \
    --print-kernel-base mangled
  cp "$W/$app.details.out" "$W/$app-details.csv"
  step "$app" raw 120 "$NCU" --import "$W/$app.ncu-rep" --page raw --csv --print-units base \
    --print-kernel-base mangled --metrics "$METRICS"
  cp "$W/$app.raw.out" "$W/$app-raw.csv"
done

# Provenance and the steps, for the comparer; then the comparison.
python3 - "$W" "$BUILD" "$("$NCU" --version 2>/dev/null | tail -1)" \
  "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)" \
  "${REV:-$(git rev-parse --short HEAD 2>/dev/null)}" "${SAMPLE[*]}" "$TRAIN_ARGS" <<'PY'
import datetime, json, os, sys
w, build, ncu, gpu, head, sample, train_args = sys.argv[1:]
steps = {}
for line in open(f"{w}/steps.txt"):
    app, name, rc, secs, limit = line.split()
    steps.setdefault(app, {})[name] = {
        "rc": rc if rc == "skipped" else int(rc), "s": float(secs), "limit_s": int(limit),
        "timed_out": rc in ("124", "137")}
json.dump(steps, open(f"{w}/steps.json", "w"), indent=1)
json.dump({"device": gpu + ", Nsight Compute " + ncu,
           "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
           "git_revision": os.environ.get("ROOFKIT_GIT_REVISION") or head,
           "command": f"TRAIN_ARGS='{train_args}' validation/scripts/diagnosis-vs-ncu.sh {build}",
           "commands": {
               "applications": open(f"{w}/commands.txt").read().splitlines(),
               "roofkit": f"roofline-cuda profile --profile-from-start off {sample} -o APP.json "
                          "-- ONE_ITERATION_COMMAND".replace("  ", " "),
               "ncu": "ncu --set full --import-source no --clock-control none "
                      "--profile-from-start off -f -o APP ONE_ITERATION_COMMAND",
               "ncu_details": "ncu --import APP.ncu-rep --page details --csv "
                              "--print-kernel-base mangled",
               "ncu_raw": "ncu --import APP.ncu-rep --page raw --csv --print-units base "
                          "--print-kernel-base mangled --metrics "
                          "launch__registers_per_thread,..."}},
          open(f"{w}/provenance.json", "w"), indent=1)
PY
# shellcheck disable=SC2086 # word splitting of APPS is wanted: "a  b" -> a,b
python3 validation/scripts/diagnosis_vs_ncu.py "$W" "$OUT" --apps "$(echo $APPS | tr ' ' ,)"
rc=$?
tar czf "$OUT/diagnosis-vs-ncu-logs.tgz" -C "$W" --exclude='*.ncu-rep' --exclude=fft_blas_thrust .
echo "diagnosis-vs-ncu: $(($(date +%s) - START)) s in all; results in $OUT" >&2
exit "$rc"

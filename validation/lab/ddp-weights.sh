#!/usr/bin/env bash
# Where a DDP step's weights part under roofline-cuda profile (issue 40): the weight and gradient
# sums of validation/apps/ddp_train.py after its last step, alone (twice) and under profile with
# one setting changed at a time: every launch replayed in batches (the default) or one at a time,
# without the NCCL call recorder, with CUDA_LAUNCH_BLOCKING=1, one rank instead of two, and NCCL
# without peer-to-peer access (NCCL_P2P_DISABLE=1).
# Writes $OUT/ddp-weights.json (ddp_weights_json.py) and the runs' output under $OUT/ddp-weights/.
# Usage (a host with two GPUs, after a build with the tools):
#   OUT=dir REV=rev [RUNS='alone profile ...'] ddp-weights.sh BUILD
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD="${1:-build/gpu}"
RC="$(cd "$BUILD" && pwd)/tools/roofline-cuda"
OUT="$(mkdir -p "${OUT:-out}" && cd "${OUT:-out}" && pwd)"
R="$OUT/ddp-weights"
mkdir -p "$R"
APP=(validation/apps/ddp_train.py --steps 3)
TWO=(torchrun --standalone --nproc_per_node 2 "${APP[@]}")
ONE=(torchrun --standalone --nproc_per_node 1 "${APP[@]}")
PROFILE=("$RC" profile --quiet --sample all --profile-from-start off)
run() { # name, then env VAR=value... and the command
  local name=$1
  shift
  timeout 150 env "$@" >"$R/$name.out" 2>"$R/$name.err"
  echo $? >"$R/$name.rc"
  echo "ddp-weights: $name rc=$(cat "$R/$name.rc")"
}
# Each setting: a name, then its environment and command. RUNS picks some by name (default all).
declare -A SETTINGS=(
  [alone]="${TWO[*]}"
  [alone_again]="${TWO[*]}"
  [profile]="${PROFILE[*]} -o $R/profile.json -- ${TWO[*]}"
  [profile_again]="${PROFILE[*]} -o $R/profile_again.json -- ${TWO[*]}"
  [profile_batch1]="${PROFILE[*]} --replay-batch 1 -o $R/profile_batch1.json -- ${TWO[*]}"
  [profile_no_recorder]="ROOFKIT_NCCL_SHIM=0 ${PROFILE[*]} -o $R/profile_nr.json -- ${TWO[*]}"
  [alone_blocking]="CUDA_LAUNCH_BLOCKING=1 ${TWO[*]}"
  [profile_blocking]="CUDA_LAUNCH_BLOCKING=1 ${PROFILE[*]} -o $R/profile_bl.json -- ${TWO[*]}"
  [one_rank_alone]="${ONE[*]}"
  [one_rank_profile]="${PROFILE[*]} -o $R/one_rank.json -- ${ONE[*]}"
  # NCCL through host memory instead of NVLink peer access: no peer writes into a rank's GPU
  [no_p2p_alone]="NCCL_P2P_DISABLE=1 ${TWO[*]}"
  [no_p2p_profile]="NCCL_P2P_DISABLE=1 ${PROFILE[*]} -o $R/profile_np.json -- ${TWO[*]}"
  [no_p2p_profile_again]="NCCL_P2P_DISABLE=1 ${PROFILE[*]} -o $R/profile_np2.json -- ${TWO[*]}"
)
ORDER="alone alone_again profile profile_again profile_batch1 profile_no_recorder alone_blocking
  profile_blocking one_rank_alone one_rank_profile no_p2p_alone no_p2p_profile no_p2p_profile_again"
"${TWO[@]}" >/dev/null 2>&1 # warm the caches and NCCL's first start
for name in ${RUNS:-$ORDER}; do
  read -r -a words <<<"${SETTINGS[$name]}"
  run "$name" "${words[@]}"
done
DEVICE="$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)" \
  REVISION="${REV:-$(git rev-parse --short HEAD 2>/dev/null)}" \
  python3 validation/lab/ddp_weights_json.py "$R" >"$OUT/ddp-weights.json"
cat "$OUT/ddp-weights.json" | head -80

#!/usr/bin/env bash
# Each rank's NVLink traffic as `profile` reads it (NVML's counters of the rank's GPU, from its
# first launch to its exit) beside its collectives' bus bytes (issue 40), on one host with two
# GPUs joined by NVLink:
#   ddp    the DDP step of validation/apps/ddp_train.py (4 steps) under profile, two ranks
#   nop2p  the same with NCCL_P2P_DISABLE=1: the same collectives through host memory, so the
#          links should carry next to nothing
#   mpi    the MPI ring (validation/apps/mpi_ring.cu, staged through host memory): no NCCL
# and the GPU test that holds the counters to a peer copy of known size. Writes
# $OUT/nvlink-traffic.json (nvlink_traffic_json.py) and the runs under $OUT/runs.
# Usage (two GPUs, after a build with the tools and the GPU tests):
#   OUT=dir REV=rev validation/lab/nvlink-traffic.sh BUILD
set -uo pipefail
ulimit -c 0
cd "$(dirname "$0")/../.." || exit 2
BUILD="${1:?usage: OUT=dir REV=rev validation/lab/nvlink-traffic.sh BUILD}"
RC="$(cd "$BUILD" && pwd)/tools/roofline-cuda"
OUT="$(mkdir -p "${OUT:-out/nvlink-traffic}" && cd "${OUT:-out/nvlink-traffic}" && pwd)"
R="$OUT/runs"
mkdir -p "$R"
DDP=(torchrun --standalone --nproc_per_node 2 validation/apps/ddp_train.py --steps 4)
run() { # name, then the command: its output and exit code under $R
  local name=$1
  shift
  timeout 300 "$@" >"$R/$name.out" 2>"$R/$name.err"
  echo $? >"$R/$name.rc"
}
run ddp "$RC" profile -q --profile-from-start off -o "$R/ddp.json" -- "${DDP[@]}"
run nop2p env NCCL_P2P_DISABLE=1 "$RC" profile -q --profile-from-start off -o "$R/nop2p.json" \
  -- "${DDP[@]}"
MPI_RING="$(validation/scripts/build-mpi-ring.sh "$R/mpi" 2>"$R/mpi-build.err" | tail -1)"
[ -x "$MPI_RING" ] && run mpi "$RC" profile -q -o "$R/mpi.json" \
  -- mpirun --allow-run-as-root --oversubscribe -np 2 "$MPI_RING"
run peer_copy_test ctest --test-dir "$BUILD" -R 'interconnect_gpu' --output-on-failure -V
python3 validation/lab/nvlink_traffic_json.py "$OUT" "${REV:-unknown}" >"$OUT/nvlink-traffic.json"

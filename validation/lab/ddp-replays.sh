#!/usr/bin/env bash
# What replaying a DDP rank's compute kernels does to the job's collectives, and which DRAM
# bytes are a compute kernel's own (issue 40), on one host with two GPUs, with the DDP step of
# validation/apps/ddp_train.py (the last of 4 steps, --profile-from-start off):
#   quiet  profile selecting NCCL's kernels only: nothing is replayed, every launch is timed,
#          so each rank's time waiting in collectives is what the job waits by itself
#   every  profile --sample all: every compute launch replayed, the ranks coordinated by the
#          peer table: the same figures beside quiet's, and the time the NCCL calls waited for
#          a peer's replay
#   nop2p  NCCL_P2P_DISABLE=1 (NCCL through host memory: no peer writes into this GPU's memory
#          while one of its kernels runs), profile --sample all, and ncu's one-pass DRAM values
#          twice, per rank: are ours and ncu's apart with peer writes only?
# Writes $OUT/ddp-replays.json (ddp_replays_json.py) and the runs under $OUT/runs.
# Usage (two GPUs, after a build with the tools): OUT=dir REV=rev validation/lab/ddp-replays.sh BUILD
set -uo pipefail
ulimit -c 0
cd "$(dirname "$0")/../.." || exit 2
BUILD="${1:?usage: OUT=dir REV=rev validation/lab/ddp-replays.sh BUILD}"
RC="$(cd "$BUILD" && pwd)/tools/roofline-cuda"
OUT="$(mkdir -p "${OUT:-out/ddp-replays}" && cd "${OUT:-out/ddp-replays}" && pwd)"
R="$OUT/runs"
mkdir -p "$R"
DDP=(torchrun --standalone --nproc_per_node 2 validation/apps/ddp_train.py --steps 4)
PROFILE=("$RC" profile -q --profile-from-start off)
run() { # name, then the command: its output, exit code and wall seconds under $R
  local name=$1 t
  shift
  t=$(date +%s.%N)
  timeout 240 "$@" >"$R/$name.out" 2>"$R/$name.err"
  echo $? >"$R/$name.rc"
  awk -v a="$t" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f\n", b - a }' >"$R/$name.s"
  echo "ddp-replays: $name rc=$(cat "$R/$name.rc") in $(cat "$R/$name.s") s"
}
"${DDP[@]}" >/dev/null 2>&1 # warm the file cache, the CUDA JIT cache and NCCL's first start
run alone "${DDP[@]}"
run quiet "${PROFILE[@]}" --kernel ncclDevKernel -o "$R/quiet.json" -- "${DDP[@]}"
run every "${PROFILE[@]}" --sample all -o "$R/every.json" -- "${DDP[@]}"
run nop2p env NCCL_P2P_DISABLE=1 "${PROFILE[@]}" --sample all -o "$R/nop2p.json" -- "${DDP[@]}"
NCU=(ncu --target-processes all --profile-from-start off --kernel-name "regex:^(?!nccl)"
  --cache-control all --clock-control none --csv --page raw --print-units base
  --metrics dram__bytes_read.sum,dram__bytes_write.sum)
for i in 1 2; do
  run "nop2p_ncu$i" env NCCL_P2P_DISABLE=1 "${NCU[@]}" "${DDP[@]}"
done
for r in quiet every nop2p; do
  "$RC" merge "$R/$r".rank*.json -o "$R/$r-merged.json" >"$R/$r-merge.md" 2>"$R/$r-merge.err"
done
python3 validation/lab/ddp_replays_json.py "$R" "${REV:-unknown}" >"$OUT/ddp-replays.json" ||
  exit 1
cat "$OUT/ddp-replays.json"

#!/usr/bin/env bash
# The multi-GPU evidence of issue 40 on one host with two GPUs joined by NVLink, in one call of
# under 10 minutes:
#   1. the node's interconnect: peer copies per pair and NCCL all-reduce bus bandwidth
#      (roofline-cuda ceilings --interconnect, NCCL from PyTorch's wheel)
#   2. a DDP training step of our own (validation/apps/ddp_train.py, torchrun, 2 ranks) alone,
#      twice
#   3. the same under roofline-cuda profile (--profile-from-start off: the last step): both
#      ranks profiled, one run per rank, merged; collectives timed, their NCCL calls recorded
#      (libroofkit_nccl.so), placed by bus bandwidth
#   4. the same under ncu --target-processes all with the same filter (the last step, NCCL's
#      kernels left out, our counter names): wall time, and launch by launch per rank against
#      our run (profile-compare.py: instruction counts equal); then twice with the two DRAM
#      metrics alone (one pass): our DRAM bytes against the first, the second against the first
#   5. an MPI program of our own (validation/apps/mpi_ring.cu, mpirun -np 2) alone and under
#      profile
# Writes under $OUT: multi-gpu-interconnect.json, multi-gpu-ddp.json, multi-gpu-ddp-vs-ncu-
# rank{0,1}.json, multi-gpu-mpi.json, and the runs, charts and logs behind them (runs/).
# The roofs are measured (once per GPU, then cached) before the timed runs, and timed apart.
# Usage (GPU machine, after a build with the tools): OUT=dir validation/scripts/multi-gpu.sh BUILD
set -uo pipefail
ulimit -c 0
cd "$(dirname "$0")/../.."
BUILD="${1:-build/gpu}"
OUT="$(mkdir -p "${OUT:-out/multi-gpu}" && cd "${OUT:-out/multi-gpu}" && pwd)"
R="$OUT/runs"
mkdir -p "$R"
RC="$(cd "$BUILD" && pwd)/tools/roofline-cuda"
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
step() { echo "multi-gpu: $*" | tee -a "$R/steps.log"; }
wall() { # name, limit (s), command...: runs it, its wall seconds in $R/name.s, rc in name.rc
  local name=$1 limit=$2 t
  shift 2
  t=$(now)
  timeout "$limit" "$@" >"$R/$name.out" 2>"$R/$name.err"
  echo $? >"$R/$name.rc"
  since "$t" >"$R/$name.s"
  step "$name rc=$(cat "$R/$name.rc") wall $(cat "$R/$name.s") s"
}
# NCCL of PyTorch's wheel, for ceilings' dlopen (the ranks' NCCL is PyTorch's own).
NCCL_LIB="$(python3 -c 'import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], "lib", "libnccl.so.2"))' 2>/dev/null)"
export ROOFKIT_NCCL_LIB="${ROOFKIT_NCCL_LIB:-$NCCL_LIB}"
step "device: $(nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | tr '\n' ';')"
step "topology: $(nvidia-smi topo -m 2>/dev/null | sed -n 2p | tr -s ' ')"
step "torch: $(python3 -c 'import torch; print(torch.__version__, "nccl", torch.cuda.nccl.version())' 2>&1 | tail -1)"
step "ncu: $(ncu --version 2>/dev/null | tail -1); mpirun: $(mpirun --version 2>/dev/null | head -1)"
step "nccl for ceilings: $ROOFKIT_NCCL_LIB"

# 1. The interconnect roof.
wall interconnect 120 "$RC" ceilings --interconnect --json --save "$R/interconnect.json"
cp "$R/interconnect.json" "$OUT/multi-gpu-interconnect.json" 2>/dev/null

# The roofs profile measures once per GPU and then reads from its cache (docs/profile.md):
# measured here, by a profile of a program without kernels, so that the timed run below is not
# a machine's first and the one-time cost is reported apart.
wall roofs_first 120 "$RC" profile -q -o "$R/roofs-first.json" -- true # exit 4: no launch

# 2-4. The DDP step: alone, under profile, under ncu.
DDP=(torchrun --standalone --nproc_per_node 2 validation/apps/ddp_train.py --steps 4)
"${DDP[@]}" >/dev/null 2>&1 # warm the file cache, the CUDA JIT cache and NCCL's first start
wall ddp_plain 120 "${DDP[@]}"
wall ddp_plain2 120 "${DDP[@]}" # a second run alone: are the job's weights the same run to run?
wall ddp_profile 240 "$RC" profile --sample all --profile-from-start off --records "$R/ddp.records.jsonl" \
  -o "$R/ddp.json" --plot "$R/ddp.svg" -- "${DDP[@]}"
# The collectives of both ranks against the measured interconnect roof.
"$RC" merge "$R"/ddp.rank*.json -o "$R/ddp-merged.json" --interconnect "$R/interconnect.json" \
  --collectives-plot "$R/ddp-collectives.svg" >"$R/ddp-merge.md" 2>"$R/ddp-merge.err"
step "merge with the interconnect roof rc=$?"
metrics=$(python3 validation/scripts/ncu_csv.py metrics "$R/ddp.records.jsonl.rank0" 2>/dev/null)
# 4. The MPI ring (before ncu, the step with the least predictable time): built here (mpicxx + nvcc), alone and under profile.
MPI_RING="$(validation/scripts/build-mpi-ring.sh "$R/mpi" 2>"$R/mpi-build.err" | tail -1)"
MPIRUN=(mpirun --allow-run-as-root --oversubscribe -np 2)
if [ -x "$MPI_RING" ]; then
  wall mpi_plain 60 "${MPIRUN[@]}" "$MPI_RING"
  wall mpi_profile 120 "$RC" profile --records "$R/mpi.records.jsonl" -o "$R/mpi.json" \
    --plot "$R/mpi.svg" -- "${MPIRUN[@]}" "$MPI_RING"
else
  step "mpi_ring did not build: $(tail -3 "$R/mpi-build.err")"
fi

NCU=(ncu --target-processes all --profile-from-start off --kernel-name "regex:^(?!nccl)"
  --cache-control all --clock-control none --csv --page raw --print-units base)
if [ -n "$metrics" ]; then
  wall ddp_ncu "${NCU_LIMIT_S:-200}" "${NCU[@]}" --metrics "$metrics" "${DDP[@]}"
  cp "$R/ddp_ncu.out" "$R/ddp-ncu.csv"
  # ncu's one-pass DRAM values, twice: the reference for ours, and its own run-to-run spread.
  for i in 1 2; do
    wall "ddp_ncu_dram$i" 120 "${NCU[@]}" --metrics dram__bytes_read.sum,dram__bytes_write.sum \
      "${DDP[@]}"
    cp "$R/ddp_ncu_dram$i.out" "$R/ddp-ncu-dram$i.csv"
  done
else
  step "ddp_ncu skipped: no profiled launch in the rank 0 records"
fi

export DEVICE="$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"
export REVISION="${REV:-$(git rev-parse HEAD 2>/dev/null)}"
python3 validation/scripts/multi_gpu_report.py "$R" "$OUT"
step "done; files in $OUT"

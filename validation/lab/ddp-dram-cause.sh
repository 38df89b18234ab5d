#!/usr/bin/env bash
# Where ncu's extra ~2.3 MB of DRAM writes on the DDP step's compute kernels comes from (issue
# 40; one rank on one GPU, ddp-one-rank-dram.sh): the same model and data trained
#   ddp    under torchrun with one rank (DDP hooks, NCCL): ours, ncu's kernel replay (its report
#          kept, so that its log gives each launch's passes) and ncu's application replay
#   plain  in one plain process (validation/apps/ddp_train.py --no-ddp: no NCCL, no DDP): ours
#          and ncu's kernel replay twice
# each with the two DRAM metrics alone (one pass) and the last of 4 steps profiled. The same
# kernels on the same data: a count that moves with NCCL's presence is not the kernel's own.
# Writes $OUT/ddp-dram-cause.json (ddp_dram_cause_json.py). Usage (one GPU, after a build with
# the tools): OUT=dir REV=rev validation/lab/ddp-dram-cause.sh BUILD
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
BUILD="${1:?usage: OUT=dir REV=rev validation/lab/ddp-dram-cause.sh BUILD}"
RC="$(cd "$BUILD" && pwd)/tools/roofline-cuda"
OUT="$(mkdir -p "${OUT:-out/ddp-dram-cause}" && cd "${OUT:-out/ddp-dram-cause}" && pwd)"
DDP=(torchrun --standalone --nproc_per_node 1 validation/apps/ddp_train.py --steps 4)
PLAIN=(python3 validation/apps/ddp_train.py --steps 4 --no-ddp)
NCU=(ncu --target-processes all --profile-from-start off --kernel-name "regex:^(?!nccl)"
  --cache-control all --clock-control none --print-units base
  --metrics dram__bytes_read.sum,dram__bytes_write.sum)
ours() { # name, then the application
  local name=$1
  shift
  "$RC" profile -q --sample all --profile-from-start off -o "$OUT/$name.json" -- "$@" \
    >"$OUT/$name.out" 2>"$OUT/$name.err" || exit 1
}
ncu_csv() { # name, then ncu's options and the application: the raw page as CSV
  local name=$1
  shift
  "${NCU[@]}" --csv --page raw "$@" >"$OUT/$name.csv" 2>"$OUT/$name.err" || exit 1
}
"${DDP[@]}" >/dev/null 2>&1 # warm the caches
ours ddp "${DDP[@]}"
# A report, so that ncu's log (stdout) keeps each launch's "N pass(es)"; then its raw page.
"${NCU[@]}" -f -o "$OUT/ncu_ddp" "${DDP[@]}" >"$OUT/ncu_ddp.log" 2>&1 || exit 1
ncu -i "$OUT/ncu_ddp.ncu-rep" --csv --page raw --print-units base >"$OUT/ncu_ddp.csv" || exit 1
ncu_csv ncu_ddp_app --replay-mode application "${DDP[@]}"
ours plain "${PLAIN[@]}"
ncu_csv ncu_plain1 "${PLAIN[@]}"
ncu_csv ncu_plain2 "${PLAIN[@]}"
python3 validation/lab/ddp_dram_cause_json.py "$OUT" "${REV:-unknown}" >"$OUT/ddp-dram-cause.json"

#!/usr/bin/env bash
# The DDP step with one rank on one GPU (torchrun --nproc_per_node 1): our DRAM bytes against
# ncu's one-pass values, twice. On two GPUs ncu's writes exceed ours by about 2.3 MB on most
# launches, with and without NCCL's peer path (ddp-replays.sh): does the gap need a second
# process or GPU? Writes $OUT/ddp-one-rank-dram.json. Usage (one GPU, after a build with the
# tools): OUT=dir REV=rev validation/lab/ddp-one-rank-dram.sh BUILD
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
BUILD="${1:?usage: OUT=dir REV=rev validation/lab/ddp-one-rank-dram.sh BUILD}"
OUT="$(mkdir -p "${OUT:-out/ddp-one-rank}" && cd "${OUT:-out/ddp-one-rank}" && pwd)"
ONE=(torchrun --standalone --nproc_per_node 1 validation/apps/ddp_train.py --steps 4)
"${ONE[@]}" >/dev/null 2>&1 # warm the caches
"$BUILD/tools/roofline-cuda" profile -q --sample all --profile-from-start off -o "$OUT/one.json" \
  -- "${ONE[@]}" >"$OUT/one.out" 2>"$OUT/one.err" || exit 1
NCU=(ncu --target-processes all --profile-from-start off --kernel-name "regex:^(?!nccl)"
  --cache-control all --clock-control none --csv --page raw --print-units base
  --metrics dram__bytes_read.sum,dram__bytes_write.sum)
for i in 1 2; do
  "${NCU[@]}" "${ONE[@]}" >"$OUT/ncu$i.csv" 2>"$OUT/ncu$i.err" || exit 1
done
python3 validation/lab/ddp_one_rank_json.py "$OUT" "${REV:-unknown}" >"$OUT/ddp-one-rank-dram.json"

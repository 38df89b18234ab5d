#!/usr/bin/env bash
# Whose DRAM bytes are right where ncu's and ours part (issue 40: with NCCL in the process ncu
# counts about 2.3 MB more writes on every launch of the DDP step, ddp-dram-cause.sh): kernels
# whose bytes are known before they run (known_writes.py: fills, a scaled copy, sums), in a
# plain process, beside a one-rank NCCL process group, and beside a DDP-wrapped model, each
# under roofline-cuda profile (every launch) and ncu's one-pass DRAM metrics twice; then the
# NCCL group with NCCL_CUMEM_ENABLE=0 (NCCL's buffers from cudaMalloc, not the driver's virtual
# memory API) and the plain process with PyTorch's expandable segments (its own buffers from
# the virtual memory API): does ncu's extra count follow that API rather than NCCL?
# Writes $OUT/known-writes.json (known_writes_json.py). Usage (one GPU, after a build with the
# tools): OUT=dir REV=rev validation/lab/known-writes.sh BUILD
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
BUILD="${1:?usage: OUT=dir REV=rev validation/lab/known-writes.sh BUILD}"
RC="$(cd "$BUILD" && pwd)/tools/roofline-cuda"
OUT="$(mkdir -p "${OUT:-out/known-writes}" && cd "${OUT:-out/known-writes}" && pwd)"
NCU=(ncu --target-processes all --profile-from-start off --kernel-name "regex:^(?!nccl)"
  --cache-control all --clock-control none --csv --page raw --print-units base
  --metrics dram__bytes_read.sum,dram__bytes_write.sum)
# variant: mode[:environment]
for variant in plain nccl ddp nccl-nocumem:NCCL_CUMEM_ENABLE=0 \
  plain-expandable:PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True; do
  mode=${variant%%:*}
  [ "$mode" = "$variant" ] && extra=() || extra=(env "${variant#*:}")
  app=("${extra[@]}" python3 validation/lab/known_writes.py --mode "${mode%%-*}")
  [ "${mode%%-*}" = plain ] ||
    app=("${extra[@]}" torchrun --standalone --nproc_per_node 1 "${app[@]:${#extra[@]}+1}")
  "${app[@]}" >"$OUT/$mode-alone.out" 2>"$OUT/$mode-alone.err" || continue
  "$RC" profile -q --sample all --profile-from-start off -o "$OUT/$mode-ours.json" \
    -- "${app[@]}" >"$OUT/$mode-ours.out" 2>"$OUT/$mode-ours.err"
  for i in 1 2; do
    "${NCU[@]}" "${app[@]}" >"$OUT/$mode-ncu$i.csv" 2>"$OUT/$mode-ncu$i.err"
  done
done
python3 validation/lab/known_writes_json.py "$OUT" "${REV:-unknown}" >"$OUT/known-writes.json"

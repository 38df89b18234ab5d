#!/usr/bin/env bash
# How far two runs of one tool agree on the DRAM bytes of the DDP step's large-footprint
# kernels, against how far the tools agree with each other (issue 40): the model of
# validation/apps/ddp_train.py in a plain process (--no-ddp, the last of 4 steps profiled),
#   ours1, ours2   roofline-cuda profile --sample all, twice
#   ncu1, ncu2     ncu's two DRAM metrics (one pass), twice
#   ncu_pad, ours_pad  each once more with 256 MiB taken before the model (--pad-mb 256), which
#                  moves where its buffers lie
# PROFILE_ARGS: more options for our runs (e.g. "--replay-batch 1"), named in the evidence.
# Writes $OUT/ddp-plain-spread.json (ddp_plain_spread_json.py). Usage (one GPU, after a build
# with the tools): OUT=dir REV=rev validation/lab/ddp-plain-spread.sh BUILD
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
BUILD="${1:?usage: OUT=dir REV=rev validation/lab/ddp-plain-spread.sh BUILD}"
RC="$(cd "$BUILD" && pwd)/tools/roofline-cuda"
OUT="$(mkdir -p "${OUT:-out/ddp-plain-spread}" && cd "${OUT:-out/ddp-plain-spread}" && pwd)"
PLAIN=(python3 validation/apps/ddp_train.py --steps 4 --no-ddp)
NCU=(ncu --profile-from-start off --cache-control all --clock-control none --csv --page raw
  --print-units base --metrics dram__bytes_read.sum,dram__bytes_write.sum)
ours() { # name, then the application's extra arguments
  local name=$1
  shift
  # shellcheck disable=SC2086
  "$RC" profile -q --sample all --profile-from-start off ${PROFILE_ARGS:-} -o "$OUT/$name.json" \
    -- "${PLAIN[@]}" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err" || exit 1
}
ncu_run() { # name, then the application's extra arguments
  local name=$1
  shift
  "${NCU[@]}" "${PLAIN[@]}" "$@" >"$OUT/$name.csv" 2>"$OUT/$name.err" || exit 1
}
"${PLAIN[@]}" >/dev/null 2>&1 # warm the caches
ours ours1
ncu_run ncu1
ours ours2
ncu_run ncu2
ncu_run ncu_pad --pad-mb 256
ours ours_pad --pad-mb 256
python3 validation/lab/ddp_plain_spread_json.py "$OUT" "${REV:-unknown}" \
  >"$OUT/ddp-plain-spread.json"

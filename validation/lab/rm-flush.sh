#!/usr/bin/env bash
# Is the kernel driver's own L2 write-back and invalidate (lib/src/profiler/driver_l2_flush)
# what ncu's cache control does? validation/lab/inplace.cu under ncu: with --cache-control all and
# no flush of its own, against --cache-control none with the driver flush before every in-place
# launch (INPLACE_FLUSH=3), with roofkit's sweep (INPLACE_FLUSH=1), and with nothing at all.
# Usage (GPU machine, after a build of build/gpu): OUT=dir validation/lab/rm-flush.sh [MiB...]
# (CSV files under $OUT)
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/cuda-env.sh
OUT="${OUT:-out/rm-flush}"; mkdir -p "$OUT"
sizes=("${@:-24 64 256}")
read -r -a sizes <<<"${sizes[*]}"
source validation/lab/inplace-build.sh
INPLACE_FLUSH=3 "$OUT/inplace" "${sizes[@]}"; echo "alone with the driver flush rc=$?"
run() { # label, INPLACE_FLUSH, cache control
  INPLACE_FLUSH=$2 ncu --cache-control "$3" --clock-control none \
    --kernel-name regex:'primer_sum|inplace' --csv --page raw --print-units base \
    --metrics dram__bytes_read.sum,dram__bytes_write.sum "$OUT/inplace" "${sizes[@]}" \
    >"$OUT/$1.csv" 2>"$OUT/$1.err"
  echo "$1 rc=$? $(grep -h 'driver L2' "$OUT/$1.csv" "$OUT/$1.err" | head -1)"
}
run ncu-all-1 0 all
run ncu-none-driver-1 3 none
run ncu-all-2 0 all
run ncu-none-driver-2 3 none
run ncu-none-sweep 1 none
run ncu-none-nothing 0 none
run ncu-all-driver 3 all

#!/usr/bin/env bash
# Builds hfma2.cu for sm_90, prints each kernel's FMA instruction counts from the disassembly,
# then runs it with nvidia-smi sampling the SM clock every 20 ms. Writes to $OUT (default
# out/hfma2): sass.txt, run.txt, smi.csv. Usage: validation/lab/hfma2.sh [sustained seconds]
set -uo pipefail
cd "$(dirname "$0")"
OUT="$(mkdir -p "${OUT:-../../out/hfma2}" && cd "${OUT:-../../out/hfma2}" && pwd)"
bin="$OUT/hfma2"
nvcc -std=c++17 -arch=sm_90 -O3 -o "$bin" hfma2.cu || exit 1
cuobjdump -sass "$bin" | awk '/Function :/ { f = $3 }
  match($0, /(FFMA|HFMA2[A-Z0-9_.]*)/) { c[f " " substr($0, RSTART, RLENGTH)]++ }
  END { for (k in c) print c[k], k }' | sort -k2 >"$OUT/sass.txt"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv -lms 20 >"$OUT/smi.csv" &
smi=$!
"$bin" "${1:-0}" >"$OUT/run.txt" 2>&1
rc=$?
kill "$smi"
rm -f "$bin"
cat "$OUT/sass.txt" "$OUT/run.txt"
exit $rc

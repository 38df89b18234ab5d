#!/usr/bin/env bash
# The two rows of the diagnosis comparison (validation/data/diagnosis-vs-ncu-h200.json) that no
# measurement had settled, each tested where it runs:
#   - CUB's radix-sort histogram kernel (ncu: bank conflicts, refuted by radix-causes.sh;
#     roofkit: too few bytes in flight). Its grid is one wave at any size, so ncu times it over
#     2^20 to 2^26 keys (radix_causes sizes): if bytes in flight held it back, its time per key
#     would stay at the application's rate as the keys grow;
#   - cuDNN's nchwToNhwcKernel in the training step (ncu: stores using 6 of 32 bytes a sector,
#     26%; roofkit: under its uncoalescing threshold, warps waiting at barriers).
#   For both, ncu's source page (SASS, warp-stall samples per instruction) shows at which
#   instructions the warps wait: what faster stores or atomics could save at most.
# Writes $OUT/open-rows.json and $OUT/work.tgz (ncu's exports). Usage:
#   REV=rev [OUT=dir] validation/lab/open-rows.sh
set -uo pipefail
cd "$(dirname "$0")"
OUT="$(mkdir -p "${OUT:-../../out/open-rows}" && cd "${OUT:-../../out/open-rows}" && pwd)"
W="$(mktemp -d)"
CAP="$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .')"
nvcc -O2 -arch="sm_${CAP:-90}" -o "$W/radix.bin" radix_causes.cu || exit 1
nvidia-smi --query-gpu=clocks.sm,clocks.mem,utilization.gpu --format=csv,noheader,nounits \
  -lms 10 >"$W/smi.csv" &
smi=$!
metrics=gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread
metrics+=,launch__waves_per_multiprocessor,sm__warps_active.avg.pct_of_peak_sustained_active
metrics+=,dram__bytes_read.sum,dram__bytes_write.sum,sm__cycles_elapsed.avg.per_second
metrics+=,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_red.sum
metrics+=,smsp__sass_inst_executed_op_global_atom.sum,lts__t_requests_op_red.sum
ncu_line=(ncu --cache-control all --clock-control none)
source_line=("${ncu_line[@]}" --section SourceCounters --section WarpStateStats
  --section LaunchStats -c 1)
rc=0
"${ncu_line[@]}" --csv --page raw --print-units base --metrics "$metrics" \
  -k regex:DeviceRadixSortHistogram --log-file "$W/sizes.csv" "$W/radix.bin" sizes \
  >"$W/sizes.json" || rc=1
"${source_line[@]}" -k regex:DeviceRadixSortHistogram -o "$W/hist" "$W/radix.bin" app \
  >"$W/hist-app.json" || rc=1
"${source_line[@]}" -k regex:nchwToNhwc -o "$W/nchw" \
  python3 ../apps/train_step.py --steps 1 --warmup 1 --depth 4 >"$W/nchw-app.txt" || rc=1
for r in hist nchw; do
  ncu --import "$W/$r.ncu-rep" --page source --csv --print-source sass >"$W/$r-source.csv" ||
    rc=1
  ncu --import "$W/$r.ncu-rep" --page raw --csv --print-units base >"$W/$r-raw.csv" || rc=1
done
kill "$smi"
tar czf "$OUT/work.tgz" -C "$W" sizes.csv sizes.json hist-source.csv nchw-source.csv \
  hist-raw.csv nchw-raw.csv smi.csv nchw-app.txt
[ $rc -eq 0 ] || { echo "open-rows: a run failed (logs in $W)" >&2; exit 1; }
python3 open_rows_json.py "$W" "${REV:-unknown}" >"$OUT/open-rows.json" || exit 1
cat "$OUT/open-rows.json"

#!/usr/bin/env bash
# Separates the causes that roofkit and Nsight Compute name for CUB's onesweep radix sort (the
# fft_blas_thrust application's Thrust sort) and for PyTorch's layer norm (the training step's),
# with ncu timing each kernel (--cache-control all --clock-control none, as the diagnosis
# comparison ran it) and nvidia-smi sampling the clocks:
#   - radix_causes.cu as built (56 registers in the onesweep kernel, 3 blocks of 384 per SM):
#     `sweep` (onesweep grids of 1 to 2 waves) and `keys` (histogram atomics on 32, random or one
#     bank);
#   - the same program with the onesweep kernel held to 40 registers (4 blocks per SM), by a
#     .maxnreg line in its PTX (CUB's __launch_bounds__ makes nvcc's -maxrregcount pass it by):
#     `app`, the application's 2^22 random keys, and `sweep`, to compare the two builds at the
#     same waves of each;
#   - layer_norm_tail.py: the training step's layer norm over 3,168 to 4,752 rows.
# Writes $OUT/radix-causes.json (default out/radix-causes). Usage: REV=rev validation/lab/radix-causes.sh
set -uo pipefail
cd "$(dirname "$0")"
OUT="$(mkdir -p "${OUT:-../../out/radix-causes}" && cd "${OUT:-../../out/radix-causes}" && pwd)"
W="$(mktemp -d)"
CAP="$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .')"
ARCH="sm_${CAP:-90}"
nvcc -O2 -arch="$ARCH" -o "$W/default.bin" radix_causes.cu || exit 1
# The same build step by step (nvcc -dryrun), with the PTX edited between cicc and ptxas.
(
  cd "$W" && mkdir -p k && touch k/limited_dlink.reg.c &&
    nvcc -O2 -arch="$ARCH" -keep -keep-dir k -dryrun -o limited.bin "$OLDPWD/radix_causes.cu" 2>&1 |
    sed 's/^#\$ //' | grep -v '^\(INCLUDES\|SYSTEM_INCLUDES\|LIBRARIES\)=' >steps.sh &&
    while IFS= read -r line; do
      eval "$line" || exit 1
      if [[ "$line" == *'/cicc"'* ]]; then
        python3 "$OLDPWD/radix_causes_json.py" limit-ptx k/radix_causes.ptx \
          DeviceRadixSortOnesweepKernel 40 || exit 1
      fi
    done <steps.sh
) || { echo "radix-causes: the 40-register build failed" >&2; exit 1; }
ptxas -arch="$ARCH" -v "$W/k/radix_causes.ptx" -o "$W/limited.cubin" 2>"$W/limited.ptxas" || exit 1
nvidia-smi --query-gpu=clocks.sm,clocks.mem,utilization.gpu --format=csv,noheader,nounits \
  -lms 10 >"$W/smi.csv" &
smi=$!
metrics=gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread
metrics+=,launch__occupancy_limit_registers,launch__waves_per_multiprocessor
metrics+=,sm__warps_active.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg.per_second
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum
ncu_line=(ncu --cache-control all --clock-control none --csv --page raw --print-units base
  --metrics "$metrics")
rc=0
for run in "default sweep" "default keys" "limited app" "limited sweep"; do
  set -- $run
  "${ncu_line[@]}" --log-file "$W/$1-$2.csv" -k regex:DeviceRadixSort "$W/$1.bin" "$2" \
    >"$W/$1-$2.json" || rc=1
done
"${ncu_line[@]}" --log-file "$W/layer-norm.csv" -k regex:layer_norm \
  python3 layer_norm_tail.py >"$W/layer-norm.json" || rc=1
kill "$smi"
[ $rc -eq 0 ] || { echo "radix-causes: a run failed (logs in $W)" >&2; exit 1; }
python3 radix_causes_json.py report "$W" "${REV:-unknown}" >"$OUT/radix-causes.json" || exit 1
cat "$OUT/radix-causes.json"

#!/usr/bin/env bash
# The launch facts `roofline-cuda profile` records per launch (registers, static and dynamic shared
# memory, grid, block, cluster, waves per SM) against Nsight Compute's launch__* metrics on the same
# application, launch by launch. Writes validation/data/launch-facts-vs-ncu-<name>.json (device,
# date, revision, commands, every launch's pair of values and the mismatches).
# Needs a GPU, ncu and a build. Usage:
#   validation/scripts/launch-facts-vs-ncu.sh NAME [build-dir] -- APP [ARGS...]
# e.g. validation/scripts/launch-facts-vs-ncu.sh launch-facts build/ci -- \
#        build/ci/tests/apps/roofkit_app_launch_facts
set -euo pipefail
cd "$(dirname "$0")/../.."
name="$1"
shift
build=build/release
if [ "$#" -gt 0 ] && [ "$1" != "--" ]; then
  build="$1"
  shift
fi
[ "${1:-}" = "--" ] && shift
[ "$#" -gt 0 ] || { echo "usage: $0 NAME [build-dir] -- APP [ARGS...]" >&2; exit 2; }
rc="$build/tools/roofline-cuda"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
metrics=launch__registers_per_thread,launch__shared_mem_per_block_static
metrics=$metrics,launch__shared_mem_per_block_dynamic,launch__grid_size,launch__block_size
metrics=$metrics,launch__cluster_dim_x,launch__cluster_dim_y,launch__cluster_dim_z
metrics=$metrics,launch__waves_per_multiprocessor
profile_cmd=("$rc" profile --sample all -o "$work/run.json" -- "$@")
ncu_cmd=(ncu --metrics "$metrics" --print-units base --csv -- "$@")
"${profile_cmd[@]}" > "$work/profile.out" 2> "$work/profile.err" || {
  cat "$work/profile.err" >&2; exit 1; }
"${ncu_cmd[@]}" > "$work/ncu.csv" 2> "$work/ncu.err" || { cat "$work/ncu.err" >&2; exit 1; }
python3 validation/scripts/launch_facts_vs_ncu.py --run "$work/run.json" --ncu "$work/ncu.csv" \
  --profile-command "${profile_cmd[*]}" --ncu-command "${ncu_cmd[*]}" \
  --out "validation/data/launch-facts-vs-ncu-$name.json"

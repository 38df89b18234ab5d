# Sourced by the lab's shell scripts from the tree's root: OUT made absolute (default out), BUILD
# (default build/gpu), a fresh work directory W=/tmp/NAME holding the roofs' and metric sets'
# cache, and the GPU's name, UUID, driver and clocks in $W/device.txt (and on stdout).
# Usage: source validation/lab/lab-start.sh NAME
set -uo pipefail
ulimit -c 0
OUT="$(mkdir -p "${OUT:-out}" && cd "${OUT:-out}" && pwd)"
BUILD="${BUILD:-build/gpu}"
W=/tmp/$1; rm -rf "$W"; mkdir -p "$W"
export XDG_CACHE_HOME=$W/cache
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader \
  | tee "$W/device.txt"

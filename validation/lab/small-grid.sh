#!/usr/bin/env bash
# Builds and runs small_grid.cu (a sum over 268 MB by grids of 128 to 32 x SMs blocks, at 25% and
# 100% theoretical occupancy) with the clocks sampled; writes $OUT/small-grid.json (default
# out/small-grid). Usage: REV=rev validation/lab/small-grid.sh
set -uo pipefail
cd "$(dirname "$0")"
exec ./clocked-run.sh small-grid "a grid of less than one wave against a higher occupancy limit: the same sum over 268 MB by grids of 128, 2, 8 and 32 x SMs blocks of 256 threads, each at 25% (100 KiB of dynamic shared memory a block) and 100% theoretical occupancy with the same (largest) shared-memory carveout; every sum checked against the host's"

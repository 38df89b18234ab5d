#!/usr/bin/env bash
# One command for the committed H100 evidence: runs `roofline-cuda bench` on every bundled kernel
# and writes the run (data/runs/h100-sxm.json), its table (data/runs/h100-sxm-bench.md), the
# seed claims (docs/seed-claims.md, with the reviewed notes) and every chart in plots/.
# Needs a GPU and a build (scripts/build.sh release). Usage: validation/scripts/bench-report.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/../.."
rc="${1:-build/release}/tools/roofline-cuda"
run=data/runs/h100-sxm.json
notes=data/runs/h100-sxm-claim-notes.json
# A machine file from `roofline-cuda ceilings --save` gives the measured roofs, if named; name it
# by its path in the checkout (validation/data/ceilings-<gpu>.json), which the run records.
ceilings=()
[ -n "${ROOFKIT_MACHINE_FILE:-}" ] && ceilings=(--ceilings "$ROOFKIT_MACHINE_FILE")
"$rc" bench -q "${ceilings[@]}" -o "$run" --claims docs/seed-claims.md --claims-notes "$notes" \
  --plot plots/roofline-h100-sxm.svg --plot plots/roofline-h100-sxm.html \
  > data/runs/h100-sxm-bench.md
scripts/make-plots.sh "$rc"

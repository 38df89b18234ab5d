#!/usr/bin/env bash
# Regenerates every chart in plots/ (the ones README.md and docs/ show) and docs/seed-claims.md
# from the recorded runs in data/ (no GPU). plots/README.md lists them.
# Usage: scripts/make-plots.sh [path/to/roofline-cuda]
set -euo pipefail
cd "$(dirname "$0")/.."
rc="${1:-build/ci/tools/roofline-cuda}"
[ -x "$rc" ] || rc="build/ci/tools/roofline-cuda/roofline-cuda"
run=data/runs/h100-sxm.json
"$rc" claims "$run" --notes data/runs/h100-sxm-claim-notes.json -o docs/seed-claims.md
# The bundled kernels on the H100 (docs/charts.md).
"$rc" plot "$run" -o plots/roofline-h100-sxm.svg
"$rc" plot "$run" -o plots/roofline-h100-sxm.html
"$rc" plot "$run" --bandwidth -o plots/bandwidth-h100-sxm.svg
# A PyTorch script under roofline-cuda profile (README.md, docs/profile.md).
"$rc" plot data/runs/h100-torch-ops-profile.json -o plots/torch-ops-profile.svg
# The cliff sweeps (docs/cliffs.md, docs/cliffs-tables.md).
for f in data/cliffs/*.json; do
  name="$(basename "$f" .json)"
  "$rc" cliff --from "$f" --plot "plots/cliff-$name.svg" --plot "plots/cliff-$name.html" \
    >/dev/null
done
# PNG copies of the charts shown as images.
png=(roofline-h100-sxm bandwidth-h100-sxm torch-ops-profile cliff-h100-fold-cap-regs)
if command -v rsvg-convert >/dev/null; then
  for f in "${png[@]}"; do rsvg-convert -o "plots/$f.png" "plots/$f.svg"; done
else
  echo "make-plots: rsvg-convert not found: PNG copies not refreshed" >&2
fi

#!/usr/bin/env bash
# Regenerates every chart in plots/ and docs/seed-claims.md from the runs in data/ (no GPU).
# Usage: scripts/make-plots.sh [path/to/roofline-cuda]
set -euo pipefail
cd "$(dirname "$0")/.."
rc="${1:-build/ci/tools/roofline-cuda}"
run=data/runs/h100-sxm.json
"$rc" claims "$run" --notes data/runs/h100-sxm-claim-notes.json -o docs/seed-claims.md
"$rc" plot "$run" -o plots/roofline-h100-sxm.svg
"$rc" plot "$run" -o plots/roofline-h100-sxm.html
"$rc" plot "$run" --term --color never > plots/roofline-h100-sxm.txt
"$rc" plot "$run" --bandwidth -o plots/bandwidth-h100-sxm.svg
"$rc" plot "$run" --bandwidth --term > plots/bandwidth-h100-sxm.txt
topics=("global:^global/" "memory:^(vector|layout|vadd|readonly|unified)/"
        "compute:^(gemm|transpose|reduce|stencil)/"
        "smem-divergence-registers:^(smem|divergence|registers)/")
for t in "${topics[@]}"; do
  "$rc" plot "$run" --kernel "${t#*:}" --colour-by kernel --title "H100 SXM: ${t%%:*} kernels" \
    -o "plots/roofline-h100-sxm-${t%%:*}.svg"
done
seed=data/runs/sample-seed
"$rc" plot $seed.json -o plots/roofline-sample-seed.svg
"$rc" plot $seed.json -o plots/roofline-sample-seed.html
"$rc" plot $seed.json --term --color never > plots/roofline-sample-seed.txt
"$rc" plot --before $seed-before.json --after $seed-after.json -o plots/compare-sample-seed.svg
if command -v rsvg-convert >/dev/null; then
  for f in plots/*.svg; do rsvg-convert -o "${f%.svg}.png" "$f"; done
else
  echo "make-plots: rsvg-convert not found: PNG copies not refreshed" >&2
fi

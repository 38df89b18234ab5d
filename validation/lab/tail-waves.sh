#!/usr/bin/env bash
# Builds and runs tail_waves.cu (the same work over 1 to 16 waves) with the clocks sampled
# (clocked-run.sh), then adds each grid's time against the fastest; writes $OUT/tail-waves.json
# (default out/tail-waves). Usage: REV=rev validation/lab/tail-waves.sh
set -uo pipefail
cd "$(dirname "$0")"
export OUT="$(mkdir -p "${OUT:-../../out/tail-waves}" && cd "${OUT:-../../out/tail-waves}" && pwd)"
./clocked-run.sh tail-waves "the same work split over 1 to 16 waves: what a partial last wave costs" \
  >/dev/null || exit 1
python3 - "$OUT/tail-waves.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
for k in ("stream", "chain"):
    g = run[k]["grids"]
    best = min(x["median_ms"] for x in g)
    for x in g:
        x["vs_fastest"] = x["median_ms"] / best
json.dump(run, open(sys.argv[1], "w"), indent=1)
print(json.dumps(run, indent=1))
PY

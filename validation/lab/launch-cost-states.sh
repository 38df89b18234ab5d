#!/usr/bin/env bash
# Builds and runs launch_cost_states.cu (what CUPTI itself costs `profile`: a launch in each state
# a session leaves between its sets, a set of passes, one launch step of a pass in auto and user
# range) with the clocks sampled (clocked-run.sh); writes $OUT/launch-cost-states.json (default
# out/launch-cost-states). Its second metric set is the roofline set's collected metrics on this
# GPU's chip, listed by ROOFLINE_CUDA (a built roofline-cuda; without it, only four metrics).
# Usage: REV=rev [ROOFLINE_CUDA=build/gpu/tools/roofline-cuda] validation/lab/launch-cost-states.sh
set -uo pipefail
cd "$(dirname "$0")"
export OUT="$(mkdir -p "${OUT:-../../out/launch-cost-states}" && cd "${OUT:-../../out/launch-cost-states}" && pwd)"
if [ -n "${ROOFLINE_CUDA:-}" ]; then
  LCS_METRICS="$("$ROOFLINE_CUDA" metrics --set roofline --csv |
    awk -F, 'NR > 1 && $8 == "true" { print $4 }' | paste -sd,)" || exit 1
  export LCS_METRICS
fi
CUPTI=/usr/local/cuda/extras/CUPTI/lib64
export LAB_LIBS="-L$CUPTI -Xlinker -rpath,$CUPTI -lcupti -lcheckpoint -lcuda"
./clocked-run.sh launch-cost-states "what CUPTI itself costs profile: one launch in each state a \
session leaves between its sets of passes, a set of passes by metric set, ranges and launches, one \
launch step of a pass in auto and in user range" >/dev/null || exit 1
python3 - "$OUT/launch-cost-states.json" <<'PY'
import json, os, sys
run = json.load(open(sys.argv[1]))
run["command"] = ("REV=rev ROOFLINE_CUDA=build/gpu/tools/roofline-cuda "
                  "validation/lab/launch-cost-states.sh")
run["metric_sets"] = {"4 metrics": "sm__cycles_elapsed.max, dram__bytes_read.sum, "
                      "smsp__inst_executed.sum, lts__t_bytes.sum",
                      "LCS_METRICS": os.environ.get("LCS_METRICS", "")}
json.dump(run, open(sys.argv[1], "w"), indent=1)
print(json.dumps(run, indent=1))
PY

#!/usr/bin/env bash
# Builds and runs tail_waves.cu (the same work over 1 to 16 waves) with nvidia-smi sampling the
# clocks; writes $OUT/tail-waves.json (default out/tail-waves) with the command, device, clocks and
# revision. Usage: REV=rev validation/lab/tail-waves.sh
set -uo pipefail
cd "$(dirname "$0")"
OUT="$(mkdir -p "${OUT:-../../out/tail-waves}" && cd "${OUT:-../../out/tail-waves}" && pwd)"
CAP="$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .')"
nvcc -O2 -arch="sm_${CAP:-90}" -o "$OUT/tail_waves" tail_waves.cu || exit 1
nvidia-smi --query-gpu=clocks.sm,clocks.mem,utilization.gpu --format=csv,noheader,nounits \
  -lms 10 >"$OUT/smi.csv" &
smi=$!
"$OUT/tail_waves" >"$OUT/run.json"
rc=$?
kill "$smi"
rm -f "$OUT/tail_waves"
python3 - "$OUT" "${REV:-unknown}" <<'PY'
import datetime, json, statistics, subprocess, sys
out, rev = sys.argv[1], sys.argv[2]
run = json.load(open(f"{out}/run.json"))
samples = [list(map(float, l.split(","))) for l in open(f"{out}/smi.csv") if l.strip()]
clocks = [c for c in samples if c[2] > 0] or samples  # while the GPU was busy
gpu = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                     capture_output=True, text=True).stdout.strip().splitlines()[0]
for k in ("stream", "chain"):
    g = run[k]["grids"]
    best = min(x["median_ms"] for x in g)
    for x in g:
        x["vs_fastest"] = x["median_ms"] / best
run.update({"schema": "roofkit.validation/1",
            "what": "the same work split over 1 to 16 waves: what a partial last wave costs",
            "command": "REV=rev validation/lab/tail-waves.sh", "device": gpu,
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "git_revision": rev,
            "clocks_mhz": {"sm_median": statistics.median(c[0] for c in clocks),
                           "mem_median": statistics.median(c[1] for c in clocks),
                           "busy_samples": len(clocks), "samples": len(samples)}})
json.dump(run, open(f"{out}/tail-waves.json", "w"), indent=1)
print(json.dumps(run, indent=1))
PY
exit $rc

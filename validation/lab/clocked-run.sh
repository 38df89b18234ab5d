#!/usr/bin/env bash
# Builds one lab program (validation/lab/NAME.cu, or the underscored name), runs it with
# nvidia-smi sampling the clocks every 10 ms, and writes $OUT/NAME.json: the program's JSON with
# the evidence fields added (schema, what, command, device, date, revision, the median SM and
# memory clocks while the GPU was busy). LAB_LIBS adds link options (e.g. -lcupti -lcheckpoint -lcuda).
# Usage: REV=rev [LAB_LIBS=...] validation/lab/clocked-run.sh NAME "WHAT"
set -uo pipefail
cd "$(dirname "$0")"
NAME="${1:?usage: REV=rev validation/lab/clocked-run.sh NAME WHAT}"
WHAT="${2:?usage: REV=rev validation/lab/clocked-run.sh NAME WHAT}"
SRC="${NAME//-/_}.cu"
OUT="$(mkdir -p "${OUT:-../../out/$NAME}" && cd "${OUT:-../../out/$NAME}" && pwd)"
CAP="$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .')"
nvcc -O2 -arch="sm_${CAP:-90}" -o "$OUT/$NAME.bin" "$SRC" ${LAB_LIBS:-} || exit 1
nvidia-smi --query-gpu=clocks.sm,clocks.mem,utilization.gpu --format=csv,noheader,nounits \
  -lms 10 >"$OUT/smi.csv" &
smi=$!
"$OUT/$NAME.bin" >"$OUT/run.json"
rc=$?
kill "$smi"
rm -f "$OUT/$NAME.bin"
[ $rc -eq 0 ] || { echo "clocked-run: $NAME exited with $rc" >&2; exit $rc; }
python3 - "$OUT" "$NAME" "$WHAT" "${REV:-unknown}" <<'PY'
import datetime, json, statistics, subprocess, sys
out, name, what, rev = sys.argv[1:5]
run = json.load(open(f"{out}/run.json"))
samples = [list(map(float, l.split(","))) for l in open(f"{out}/smi.csv") if l.strip()]
clocks = [c for c in samples if c[2] > 0] or samples  # while the GPU was busy
gpu = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                     capture_output=True, text=True).stdout.strip().splitlines()[0]
run.update({"schema": "roofkit.validation/1", "what": what,
            "command": f"REV=rev validation/lab/{name}.sh", "device": gpu,
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "git_revision": rev,
            "clocks_mhz": {"sm_median": statistics.median(c[0] for c in clocks),
                           "mem_median": statistics.median(c[1] for c in clocks),
                           "busy_samples": len(clocks), "samples": len(samples)}})
json.dump(run, open(f"{out}/{name}.json", "w"), indent=1)
print(json.dumps(run, indent=1))
PY

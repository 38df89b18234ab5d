#!/usr/bin/env bash
# Does the L1/shared-memory split explain why the register kernels write more to DRAM under
# roofkit than under ncu (registers/spill: +4-6 MB, with 4% more L2-to-SM traffic)? The register
# and fold kernels of roofkit-suite with the device's preferred cache configuration left alone,
# set to prefer L1, and set to prefer shared memory (ROOFKIT_SUITE_CACHE_CONFIG): ncu's one-pass
# DRAM collection and its launch statistics (shared-memory configuration) of the plain run, and
# roofkit's profile-each with the DRAM metrics and the L2-to-SM cycles. Results under
# $OUT/carveout, the summary in $OUT/carveout/summary.json.
# Usage: OUT=dir [BUILD=build/gpu] scripts/lab/carveout.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/lab/suite-lab.sh carveout
REGEX='^(registers/|cliff/fold)'
for cfg in default L1 shared; do
  v=$cfg
  [ "$cfg" = default ] && v=
  ROOFKIT_SUITE_CACHE_CONFIG=$v timeout 150 ncu --cache-control all --clock-control none \
    --profile-from-start off --print-units base --csv --metrics $DRAM "$S" plain "$REGEX" \
    >"$OUT/ncu-$cfg.csv" 2>"$OUT/ncu-$cfg.err"
  echo "carveout: ncu $cfg rc=$?"
  ROOFKIT_SUITE_CACHE_CONFIG=$v timeout 150 ncu --cache-control all --clock-control none \
    --profile-from-start off --print-units base --csv --section LaunchStats "$S" plain "$REGEX" \
    >"$OUT/ncu-launch-$cfg.csv" 2>"$OUT/ncu-launch-$cfg.err"
  echo "carveout: ncu launch statistics $cfg rc=$?"
  ROOFKIT_SUITE_CACHE_CONFIG=$v ROOFKIT_SUITE_METRICS=$DRAM,lts__lts2xbar_cycles_active.sum \
    "$S" profile-each all "$OUT/ours-$cfg.json" "$REGEX" 2>"$OUT/ours-$cfg.err"
  echo "carveout: roofkit $cfg rc=$?"
done
python3 - "$OUT" >"$OUT/summary.json" <<'PY'
import csv, io, json, os, sys
out = sys.argv[1]
def rows(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    start = text.find('"ID","Process ID"')
    if start < 0:
        return []
    r = list(csv.reader(io.StringIO(text[start:])))
    return [dict(zip(r[0], x)) for x in r[1:] if len(x) == len(r[0]) and x[0].isdigit()]
def num(t):
    return float(str(t).replace(",", ""))
summary = {}
for cfg in ("default", "L1", "shared"):
    ncu = [x for x in rows(os.path.join(out, f"ncu-{cfg}.csv"))
           if "l2_read_sweep" not in x["Kernel Name"] and "discard" not in x["Kernel Name"]]
    launch = {}
    for x in rows(os.path.join(out, f"ncu-launch-{cfg}.csv")):
        if x.get("Metric Name") == "Shared Memory Configuration Size":
            launch.setdefault(x["Kernel Name"], x["Metric Value"])
    ours = json.load(open(os.path.join(out, f"ours-{cfg}.json")))
    kernels = [k for k in ours.get("launches", ours.get("kernels", []))]
    summary[cfg] = {"ncu": [{"kernel": x["Kernel Name"][:60],
                             "write_mb": round(num(x["dram__bytes_write.sum"]) / 1e6, 3),
                             "smem_config": launch.get(x["Kernel Name"])} for x in ncu],
                    "roofkit": kernels}
print(json.dumps(summary, indent=1))
PY
echo "carveout: summary rc=$?"

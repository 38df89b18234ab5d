#!/usr/bin/env bash
# Builds roofkit's profiler tests and roofkit-validate, runs the GPU tests, then compares
# roofkit's counter values with Nsight Compute's for the same kernels, and roofkit's wall time
# and passes with `ncu --set roofline` on the same executable. Run on a GPU machine:
#   scripts/ncu-compare.sh            (results under $OUT, default out/ncu-compare)
# Writes: ncu-compare-<chip>.json (the side-by-side table), ncu-walltime-<chip>.json,
# summary.txt and logs.tar.gz. Commit the two JSON files under data/validation/.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/cuda-env.sh
OUT="${OUT:-out/ncu-compare}"
mkdir -p "$OUT"
LOG="$(mktemp -d)"
JOBS="${ROOFKIT_JOBS:-$(nproc)}"
BUILD="${ROOFKIT_BUILD_DIR:-build/ncu-compare}"
NCU="$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | tail -1)"
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
step() { echo "== $*" | tee -a "$LOG/summary.txt"; }
finish() {
  cp "$LOG/summary.txt" "$OUT/" 2>/dev/null
  tar -czf "$OUT/logs.tar.gz" -C "$LOG" . 2>/dev/null
}
trap finish EXIT

step "device: $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1)"
step "ncu: ${NCU:-missing} $("${NCU:-false}" --version 2>/dev/null | tail -1)"

# 1. Build only what this needs.
t0=$(now)
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DROOFKIT_BUILD_KERNELS=OFF -DCMAKE_CUDA_COMPILER="$CUDA_HOME/bin/nvcc" \
  >"$LOG/configure.log" 2>&1 &&
cmake --build "$BUILD" -j "$JOBS" --target roofline-cuda roofkit-validate test_profiler_counts \
  test_timing_gpu test_metrics test_profiler_errors test_timing >"$LOG/build.log" 2>&1
build_rc=$?
step "build rc=$build_rc in $(since "$t0") s"
if [ "$build_rc" -ne 0 ]; then tail -40 "$LOG/build.log"; exit 1; fi
V="$BUILD/tests/validation/roofkit-validate"
RC="$BUILD/tools/roofline-cuda"

# 2. Tests: GPU tests on the device, CPU tests too (they must also pass with a GPU present).
for t in test_profiler_counts test_timing_gpu test_metrics test_profiler_errors test_timing; do
  timeout 300 "$BUILD/tests/$t" >"$LOG/$t.log" 2>&1
  step "$t rc=$? $(grep -E '^\[  (PASSED|FAILED) ' "$LOG/$t.log" | tr '\n' ' ')"
done
grep -E '^(coalesced|strided32|matrix_|smem_|ffma_|dfma_|hfma2_|wmma_|copy|roofline set|user range)' \
  "$LOG/test_profiler_counts.log" | tee -a "$LOG/summary.txt"
grep -E 'TB/s|us from L2|SM clock' "$LOG/test_timing_gpu.log" | tee -a "$LOG/summary.txt"
grep -B2 -A8 'Failure' "$LOG/test_profiler_counts.log" "$LOG/test_timing_gpu.log" | head -60 |
  tee -a "$LOG/summary.txt"

# 3. Pass counts on the live device (with its counter-availability image) and offline.
"$RC" metrics --csv >"$LOG/metrics-device.csv" 2>"$LOG/metrics-device.err"
step "roofline-cuda metrics on the device: rc=$? $(cut -d, -f1,2 "$LOG/metrics-device.csv" | sort -u | tr '\n' ' ')"

# 4. Our values (one process per set), then Nsight Compute's for the same metric names.
for set in roofline coalescing roofline-full tensor; do
  timeout 300 "$V" profile "$set" "$LOG/ours-$set.json" 2>>"$LOG/ours.log"
  step "ours $set rc=$? $(tail -1 "$LOG/ours.log")"
done
metrics=$(python3 -c "
import json,sys
names=[]
for s in ('roofline','coalescing'):
    names+=json.load(open('$LOG/ours-'+s+'.json'))['metrics']
print(','.join(dict.fromkeys(names)))" 2>>"$LOG/ours.log")
ncu_metrics_cmd=("$NCU" --clock-control none --cache-control none --print-units base --csv
                 --metrics "$metrics" "$V" plain)
timeout 400 "${ncu_metrics_cmd[@]}" >"$LOG/ncu-metrics.csv" 2>"$LOG/ncu-metrics.err"
step "ncu --metrics rc=$? rows=$(wc -l <"$LOG/ncu-metrics.csv")"

# 5. Wall time and passes: the same executable, plain, under our profiler, under ncu; three
#    runs of each, interleaved, so that a slow moment hits all of them alike.
ncu_set_cmd=("$NCU" --set roofline --clock-control none --cache-control none --launch-skip 3
             "$V" plain)
ncu_same_cmd=("$NCU" --clock-control none --cache-control none --launch-skip 3 --metrics
              "$(python3 -c "import json;print(','.join(json.load(open('$LOG/ours-roofline.json'))['metrics']))")"
              "$V" plain)
plain_s=""; ours_s=""; ncu_s=""; ncu_same_s=""
for rep in 1 2 3; do
  t=$(now); "$V" plain 2>>"$LOG/wall.log"; plain_s+="$(since "$t") "
  t=$(now); "$V" profile roofline "$LOG/wall-ours.json" 2>>"$LOG/wall.log"; ours_s+="$(since "$t") "
  t=$(now); timeout 150 "${ncu_set_cmd[@]}" >"$LOG/ncu-set-roofline.log" 2>&1
  ncu_rc=$?; ncu_s+="$(since "$t") "
  t=$(now); timeout 100 "${ncu_same_cmd[@]}" >"$LOG/ncu-same-metrics.log" 2>&1
  ncu_same_s+="$(since "$t") "
done
step "wall (3 runs): plain $plain_s| ours $ours_s| ncu-set-roofline $ncu_s(rc=$ncu_rc) | ncu-our-metrics $ncu_same_s"

# 6. Another profiler attached: our status check and timing under ncu.
timeout 120 "$NCU" --clock-control none --metrics gpu__time_duration.sum "$V" status \
  >"$LOG/status-under-ncu.log" 2>&1
step "status under ncu rc=$?: $(grep -E '^(profiler|message|hint|timing):' "$LOG/status-under-ncu.log" | tr '\n' ' ')"
"$V" status >"$LOG/status.log" 2>&1
step "status alone: $(tr '\n' ' ' <"$LOG/status.log")"

# 7. The tables.
LOG="$LOG" OUT="$OUT" PLAIN_S="$plain_s" OURS_S="$ours_s" NCU_S="$ncu_s" NCU_SAME_S="$ncu_same_s" \
NCU_METRICS_CMD="${ncu_metrics_cmd[*]}" NCU_SET_CMD="${ncu_set_cmd[*]}" \
NCU_SAME_CMD="${ncu_same_cmd[*]}" NCU_VERSION="$("$NCU" --version | tail -1)" \
python3 - <<'PY' 2>&1 | tee -a "$LOG/summary.txt"
import csv, json, os, re, subprocess
log, out = os.environ["LOG"], os.environ["OUT"]
ours = {s: json.load(open(f"{log}/ours-{s}.json")) for s in ("roofline", "coalescing")}
chip = ours["roofline"]["chip"].lower()
# Nsight Compute CSV: one row per kernel launch and metric, in launch order.
rows = list(csv.DictReader(l for l in open(f"{log}/ncu-metrics.csv") if l.startswith('"')))
ncu = {}
order = []
for r in rows:
    if "fill" in r["Kernel Name"]:  # the setup's fill kernels
        continue
    launch = int(r["ID"])
    if launch not in ncu:
        ncu[launch] = {}
        order.append(launch)
    v = r["Metric Value"].replace(",", "")
    try:
        ncu[launch][r["Metric Name"]] = float(v)
    except ValueError:
        pass
names = [k["name"] for k in ours["roofline"]["kernels"]]
BYTES_FLOOR = 64 * 2**20
def rule(metric, ours_v, ncu_v):
    if "__bytes" in metric or metric.endswith("t_bytes.sum"):
        # Under 64 MiB a level's bytes are dominated by write-backs of what the previous kernel
        # left dirty in L2 and by the cache state replay leaves: informational only.
        big = max(ours_v, ncu_v or 0) >= BYTES_FLOOR
        return "bytes_within_1pct" if big else "bytes_informational_under_64MiB"
    if any(x in metric for x in ("sass_thread_inst", "sass_inst_executed", "sectors", "requests",
                                 "ops_path_tensor", "wavefronts", "bank_conflicts")):
        return "equal"
    return "informational"
table, fails = [], 0
for s, doc in ours.items():
    for i, k in enumerate(doc["kernels"]):
        theirs = ncu.get(order[i], {}) if i < len(order) else {}
        for m, v in k["values"].items():
            n = theirs.get(m)
            rel = None if n in (None, 0) else (v - n) / n
            r = rule(m, v, n)
            ok = None
            if n is not None and r == "equal":
                ok = v == n
            elif n is not None and r == "bytes_within_1pct":
                ok = (abs(rel) <= 0.01) if rel is not None else (v == n)
            fails += ok is False
            table.append({"kernel": k["name"], "set": s, "metric": m, "roofkit": v, "ncu": n,
                          "rel_diff": rel, "rule": r, "ok": ok})
doc = {
    "schema": "roofkit.validation/1",
    "what": "roofkit's CUPTI range profiler vs Nsight Compute on the same kernels",
    "chip": chip.upper(),
    "ncu_version": os.environ["NCU_VERSION"],
    "commands": {
        "roofkit": ["roofkit-validate profile roofline", "roofkit-validate profile coalescing"],
        "ncu": os.environ["NCU_METRICS_CMD"],
        "script": "scripts/ncu-compare.sh",
    },
    "rules": {"equal": "instruction, request, sector, wavefront and tensor-op counts",
              "bytes_within_1pct": "DRAM, L2 and L1 bytes of 64 MiB or more",
              "bytes_informational_under_64MiB": "smaller byte counts: L2 write-backs left by the previous kernel and the cache state after replay dominate them",
              "informational": "time, clocks, occupancy (differ run to run)"},
    "failures": fails,
    "rows": table,
}
json.dump(doc, open(f"{out}/ncu-compare-{chip}.json", "w"), indent=1)
# Passes reported by ncu per kernel.
passes = [int(p) for p in re.findall(r"- (\d+) passes?", open(f"{log}/ncu-set-roofline.log").read())]
same = [int(p) for p in re.findall(r"- (\d+) passes?", open(f"{log}/ncu-same-metrics.log").read())]
wall_ours = json.load(open(f"{log}/wall-ours.json"))
w = {
    "schema": "roofkit.validation/1",
    "what": "wall time and replay passes: roofkit's profiler vs ncu --set roofline, same executable, same run",
    "chip": chip.upper(),
    "kernels": len(names),
    "commands": {
        "plain": "roofkit-validate plain",
        "roofkit": "roofkit-validate profile roofline",
        "ncu_set_roofline": os.environ["NCU_SET_CMD"],
        "ncu_roofkit_metrics": os.environ["NCU_SAME_CMD"],
    },
    "wall_s_runs": {k: [float(x) for x in os.environ[e].split()] for k, e in
                    (("plain", "PLAIN_S"), ("roofkit", "OURS_S"), ("ncu_set_roofline", "NCU_S"),
                     ("ncu_roofkit_metrics", "NCU_SAME_S"))},
    "roofkit_profile_call_s": wall_ours["profile_s"],
    "passes_per_kernel": {"roofkit": wall_ours["passes"], "ncu_set_roofline": passes,
                          "ncu_roofkit_metrics": same},
}
w["wall_s"] = {k: sorted(v)[len(v) // 2] for k, v in w["wall_s_runs"].items()}
w["ratio_ncu_set_roofline_over_roofkit"] = w["wall_s"]["ncu_set_roofline"] / w["wall_s"]["roofkit"]
w["ratio_net_of_plain_run"] = ((w["wall_s"]["ncu_set_roofline"] - w["wall_s"]["plain"]) /
                               max(w["wall_s"]["roofkit"] - w["wall_s"]["plain"], 1e-9))
json.dump(w, open(f"{out}/ncu-walltime-{chip}.json", "w"), indent=1)
print(f"compare: {len(table)} rows, {fails} failures; non-zero checked rows:")
for t in table:
    if t["rule"] in ("equal", "bytes_within_1pct") and (t["roofkit"] or t["ncu"]):
        print(f'{t["kernel"]:17} {t["metric"]:58} {t["roofkit"]:>16.6g} {t["ncu"] if t["ncu"] is None else format(t["ncu"], ">16.6g")} {t["ok"]}')
print(json.dumps({k: w[k] for k in ("wall_s_runs", "wall_s", "passes_per_kernel", "ratio_ncu_set_roofline_over_roofkit", "ratio_net_of_plain_run")}))
# Our own values, for data/validation/cupti-<chip>-*.json.
for s in ("roofline", "coalescing", "roofline-full", "tensor"):
    try:
        d = json.load(open(f"{log}/ours-{s}.json"))
    except OSError:
        continue
    d["command"] = f"roofkit-validate profile {s}  (scripts/ncu-compare.sh)"
    json.dump(d, open(f"{out}/cupti-{chip}-{s}.json", "w"), indent=1)
    print(f"ours {s}: {d['passes']} passes, {len(d['metrics'])} metrics")
PY

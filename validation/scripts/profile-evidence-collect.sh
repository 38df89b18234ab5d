#!/usr/bin/env bash
# Turns the results of validation/scripts/profile-evidence.sh (its profile-evidence.tgz, unpacked) into the
# committed evidence: the importer fixture, the comparisons with ncu, the wall-time and
# many-kernels summaries, the PyTorch chart and run. CPU only.
# Usage: validation/scripts/profile-evidence-collect.sh RESULTS_DIR   (the unpacked results/ folder)
set -euo pipefail
cd "$(dirname "$0")/../.."
R="${1:?usage: validation/scripts/profile-evidence-collect.sh RESULTS_DIR}"
V=validation/data
mkdir -p "$V" plots tests/data/ncu
steps="$R/steps.log"
# The GPU the results came from (h100, h200), as the evidence files are named.
gpu=$(grep -m1 '^evidence: device:' "$steps" | grep -oE 'H[0-9]{3}' | head -1 | tr 'A-Z' 'a-z')
gpu=${gpu:-h100}

if [ -s "$R/torch-ops-roofline-raw.csv" ]; then
  cp "$R/torch-ops-roofline-raw.csv" tests/data/ncu/torch-ops-roofline-raw.csv
  echo "fixture: tests/data/ncu/torch-ops-roofline-raw.csv"
fi
for name in torch-ops torch-ops-flushed bench launch-kinds torch-compiled two-processes \
  two-processes-alone; do
  csv="$R/$name-ncu-same-metrics.csv"
  [ -s "$R/$name.json" ] && [ -s "$csv" ] || continue
  dram=()
  [ -s "$R/$name-ncu-dram.csv" ] && dram=(--dram "$R/$name-ncu-dram.csv")
  python3 validation/scripts/profile-compare.py "$R/$name.json" "$csv" "${dram[@]}" \
    --what "roofline-cuda profile vs ncu with the same metric names, launch by launch ($name, $gpu)" \
    --command "validation/scripts/profile-evidence.sh ($name stage): roofline-cuda profile ... ; ncu --metrics <the run's counter names> --print-units base --cache-control all --clock-control none --csv --page raw ... ; ncu --metrics dram__bytes_read.sum,dram__bytes_write.sum (same options)" \
    >"$V/profile-vs-ncu-$name-$gpu.json"
  echo "comparison: $V/profile-vs-ncu-$name-$gpu.json ($(python3 -c "import json; print(json.load(open('$V/profile-vs-ncu-$name-$gpu.json'))['verdict'])"))"
done
if [ -s "$R/torch-ops.svg" ]; then
  # The GPU machine's output folder is no part of the evidence: it becomes $OUT.
  strip='s|/[^ "<]*/results/|$OUT/results/|g'
  sed "$strip" "$R/torch-ops.svg" >plots/torch-ops-profile.svg
  sed "$strip" "$R/torch-ops.json" >"data/runs/$gpu-torch-ops-profile.json"
  echo "chart: plots/torch-ops-profile.svg, run: data/runs/$gpu-torch-ops-profile.json"
fi
python3 - "$R" "$V/profile-overhead-$gpu.json" <<'PY'
import json, os, re, sys
r, out = sys.argv[1], sys.argv[2]
steps = re.sub(r"/[^ \"]*/results/", "$OUT/results/",
               open(os.path.join(r, "steps.log")).read()).splitlines()
def step(prefix):
    return next((s for s in steps if s.startswith("evidence: " + prefix)), "")
def wall(line):
    m = re.search(r"wall ([0-9.]+) s", line)
    return float(m.group(1)) if m else None
def timefile(name):
    p = os.path.join(r, name + ".time")
    if not os.path.exists(p):
        return None
    m = re.search(r"([0-9.]+) s wall, ([0-9]+) KiB", open(p).read())
    return {"wall_s": float(m.group(1)), "max_rss_kib": int(m.group(2))} if m else None
def run(name):
    p = os.path.join(r, name + ".json")
    if not os.path.exists(p):
        return None
    pr = json.load(open(p))["profile"]
    return {k: pr[k] for k in ("total_launches", "profiled_launches", "profile_overhead_s",
                               "profile_overhead_per_launch_s") if k in pr}
def app_line(name):
    p = os.path.join(r, name + ".out")
    return open(p).read().strip().splitlines()[-1] if os.path.exists(p) and open(p).read().strip() else ""
ncu_wall = wall(step("fixture:"))
def revision():
    for name in ("torch-ops", "many-count100", "many-all1000"):
        p = os.path.join(r, name + ".json")
        if os.path.exists(p):
            return json.load(open(p)).get("context", {}).get("git_revision", "")
    return ""
# A stage left out of the evidence run is said so, not written as empty figures.
NOT_RUN = "not in this evidence run (stages {}): see the previous revision of this file or validation/scripts/profile-walltime.sh"
ours = timefile("torch-ops")
doc = {
    "schema": "roofkit.validation/1",
    "what": "roofline-cuda profile: wall time against ncu --set roofline on the same PyTorch script, and a 10,000-kernel application with and without --launch-count",
    "device": step("device:").replace("evidence: device: ", ""),
    "torch": step("torch:").replace("evidence: torch: ", ""),
    "ncu": step("ncu:").replace("evidence: ncu: ", ""),
    "git_revision": revision(),
    "commands": {
        "ncu": "ncu --set roofline --cache-control all --clock-control none --csv --page raw --nvtx --nvtx-include ops/ python3 tests/apps/torch_ops.py",
        "ours": "roofline-cuda profile --nvtx ops -o ... --plot ... -- python3 tests/apps/torch_ops.py",
        "many": "roofkit_app_many_kernels 10000 alone; roofline-cuda profile --launch-count 100 -- roofkit_app_many_kernels 10000; roofline-cuda profile -- roofkit_app_many_kernels 1000",
        "script": "validation/scripts/profile-evidence.sh then validation/scripts/profile-evidence-collect.sh",
    },
    "torch_walltime": {
        "ncu_set_roofline_s": ncu_wall,
        "ncu_note": "ncu ran while the build ran beside it (4 of 16 cores left to it) when the log says so",
        "profile_s": ours["wall_s"],
        "script_alone_s": (timefile("torch-plain") or {}).get("wall_s"),
        "ratio_profile_over_ncu": ours["wall_s"] / ncu_wall,
        "goal": "at most 0.3",
        "profile_run": run("torch-ops"),
    } if ours and ncu_wall else {"not_run": NOT_RUN.format("fixture and torch")},
    "many_kernels": {
        "alone": {**(timefile("many-plain") or {}), "app": app_line("many-plain")},
        "launch_count_100": {**(timefile("many-count100") or {}), "app": app_line("many-count100"), "run": run("many-count100")},
        "all_1000": {**(timefile("many-all1000") or {}), "app": app_line("many-all1000"), "run": run("many-all1000")},
        "note": "the application prints its VmRSS after 1,000 launches and at the end (flat memory: equal); max RSS is the tool's largest child",
    } if timefile("many-count100") else {"not_run": NOT_RUN.format("many")},
    "steps": steps,
}
if "not_run" in doc["torch_walltime"] and "not_run" in doc["many_kernels"]:
    print("summary: not written (neither the torch nor the many stage ran):", out, "kept")
else:
    json.dump(doc, open(out, "w"), indent=1)
    print("summary:", out)
PY

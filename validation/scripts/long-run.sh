#!/usr/bin/env bash
# A long profiled run: tests/apps/long_run.cu (three launch shapes, tiny kernels) under
# `roofline-cuda profile` with the defaults (--sample 2) at 10,000 and 100,000 launches, and the
# application alone at 100,000. Records the peak RSS of the whole profiled run (/usr/bin/time -v:
# the largest of the launcher and the application with the injected library), the application's
# own VmRSS after 10,000 launches and at the end of the 100,000-launch run (flat memory: the two
# close), the record log's size, wall times, and the profiler's overhead per launch. Writes a JSON
# to the path given, else $OUT/long-run.json.
# Usage (GPU machine, after a build): [OUT=dir] validation/scripts/long-run.sh BUILD_DIR [OUT.json]
set -uo pipefail
ulimit -c 0
cd "$(dirname "$0")/../.."
BUILD="${1:-build/gpu}"
OUTDIR="${OUT:-out/long-run}"
mkdir -p "$OUTDIR"
JSON="${2:-$OUTDIR/long-run.json}"
APP="$BUILD/tests/apps/roofkit_app_long_run"
RC="$BUILD/tools/roofline-cuda"
W="$(mktemp -d)"
[ -x "$APP" ] || { echo "long-run.sh: $APP not built" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "long-run.sh: /usr/bin/time (GNU time) is needed" >&2; exit 2; }
now() { date +%s.%N; }
# name, launches, profiled (0 or 1): wall seconds, peak RSS (KiB), app RSS at 10k and at the end.
measure() {
  local name=$1 n=$2 profiled=$3 a b
  a=$(now)
  if [ "$profiled" = 1 ]; then
    ROOFKIT_LONG_RUN_RSS="$W/$name.rss" /usr/bin/time -v -o "$W/$name.time" \
      "$RC" profile -q --records "$W/$name.jsonl" -o "$W/$name.json" -- "$APP" "$n" \
      >"$W/$name.out" 2>"$W/$name.err"
  else
    ROOFKIT_LONG_RUN_RSS="$W/$name.rss" /usr/bin/time -v -o "$W/$name.time" "$APP" "$n" \
      >"$W/$name.out" 2>"$W/$name.err"
  fi
  echo "rc=$?" >>"$W/$name.err"
  b=$(now)
  awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", b - a }' >"$W/$name.s"
}
"$APP" 1000 >/dev/null 2>&1 # warm the driver and the file cache
measure plain_100k 100000 0
measure profiled_10k 10000 1
measure profiled_100k 100000 1
export W JSON
python3 - <<'PY'
import json, os, re
w = os.environ["W"]
def read(p, default=""):
    try:
        return open(os.path.join(w, p)).read()
    except OSError:
        return default
def peak_kib(name):
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", read(name + ".time"))
    return int(m.group(1)) if m else None
def app_rss(name):
    parts = read(name + ".rss").split()
    return [int(x) for x in parts] if len(parts) == 2 else [None, None]
def rc(name):
    m = re.search(r"rc=(\d+)", read(name + ".err"))
    return int(m.group(1)) if m else None
runs = {}
for name, n in [("plain_100k", 100000), ("profiled_10k", 10000), ("profiled_100k", 100000)]:
    rss10k, rss_end = app_rss(name)
    run = {"launches": n, "exit_code": rc(name), "wall_s": float(read(name + ".s", "0") or 0),
           "peak_rss_kib": peak_kib(name), "app_vmrss_after_10k_kib": rss10k,
           "app_vmrss_at_end_kib": rss_end}
    if name.startswith("profiled"):
        run["record_log_bytes"] = os.path.getsize(os.path.join(w, name + ".jsonl")) \
            if os.path.exists(os.path.join(w, name + ".jsonl")) else None
        try:
            p = json.load(open(os.path.join(w, name + ".json")))["profile"]
            run.update({k: p.get(k) for k in ("total_launches", "profiled_launches",
                                               "inferred_launches", "profile_overhead_s")})
            run["shapes"] = len(p.get("shapes", []))
        except (OSError, ValueError, KeyError):
            run["run_file"] = "missing or unreadable"
        run["stderr_tail"] = read(name + ".err")[-400:]
    runs[name] = run
plain, big = runs["plain_100k"], runs["profiled_100k"]
summary = {
    "what": "roofline-cuda profile (defaults, --sample 2) on tests/apps/long_run.cu: memory over "
            "10,000 and 100,000 launches, wall time and overhead per launch",
    "command": "validation/scripts/long-run.sh BUILD",
    "device": os.popen("nvidia-smi --query-gpu=name,driver_version --format=csv,noheader "
                       "2>/dev/null").read().strip(),
    "revision": os.environ.get("REV") or os.popen("git rev-parse --short HEAD 2>/dev/null").read().strip(),
    "runs": runs,
    "app_vmrss_growth_10k_to_100k_kib":
        (big["app_vmrss_at_end_kib"] - big["app_vmrss_after_10k_kib"])
        if big["app_vmrss_at_end_kib"] and big["app_vmrss_after_10k_kib"] else None,
    "peak_rss_10k_vs_100k_kib": [runs["profiled_10k"]["peak_rss_kib"], big["peak_rss_kib"]],
    "wall_ratio_100k": big["wall_s"] / plain["wall_s"] if plain["wall_s"] else None,
    "overhead_per_launch_us_100k": 1e6 * (big["wall_s"] - plain["wall_s"]) / 100000,
}
json.dump(summary, open(os.environ["JSON"], "w"), indent=2)
print(json.dumps({k: summary[k] for k in ("app_vmrss_growth_10k_to_100k_kib",
                                           "peak_rss_10k_vs_100k_kib", "wall_ratio_100k",
                                           "overhead_per_launch_us_100k")}))
print("written:", os.environ["JSON"])
PY

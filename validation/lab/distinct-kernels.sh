#!/usr/bin/env bash
# Where the replay passes' launch calls grow (issue 39), one device call: builds roofline-cuda
# and the injection library, and validation/lab/distinct_kernels.cu; then profiles every launch
# (--sample all, ROOFKIT_REPLAY_PHASES=1) of LAUNCHES (default 512) launches over 1 and 16
# different functions, small and large (2,048 FADDs), and reports the launch calls per launch in
# each pass, beside the other replay phases and the SASS size of one function of each kind.
# Writes $OUT/distinct-kernels.json. Usage (GPU machine): OUT=dir validation/lab/distinct-kernels.sh
set -uo pipefail
ulimit -c 0
cd "$(dirname "$0")/../.." || exit 2
OUT="$(mkdir -p "${OUT:-out}" && cd "${OUT:-out}" && pwd)"
BUILD="${BUILD:-build/gpu}"
W=/tmp/distinct; rm -rf $W; mkdir -p $W
export XDG_CACHE_HOME=$W/cache
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader \
  | tee $W/device.txt
source validation/lab/build-targets.sh roofline-cuda roofkit_inject
"$CUDA_HOME/bin/nvcc" -std=c++17 -O2 -arch=sm_90 -o $W/dk validation/lab/distinct_kernels.cu ||
  exit 1
"$CUDA_HOME/bin/cuobjdump" -sass $W/dk >$W/sass.txt
L=${LAUNCHES:-512}
for size in small large; do
  for d in 1 16; do
    n=${size}_$d
    $W/dk "$L" $d $size >$W/$n.alone 2>&1 || echo "$n alone failed: $(cat $W/$n.alone)"
    ROOFKIT_REPLAY_PHASES=1 timeout 200 "$BUILD/tools/roofline-cuda" profile -q --sample all \
      -o $W/$n.json -- $W/dk "$L" $d $size >$W/$n.out 2>$W/$n.err
    echo "$n rc=$? $(grep 'by pass' $W/$n.err)"
  done
done
python3 - $W "$L" <<'PY' | tee $OUT/distinct-kernels.json
import json, re, sys
sys.path.insert(0, "validation/lab")
from replay_phases import phases
w, launches = sys.argv[1], int(sys.argv[2])
sass = open(w + "/sass.txt").read()
def instructions(kind):  # SASS lines of the first function whose name has this unroll count
    m = re.search(r"Function : (\S*bodyILi0ELi%sE\S*)(.*?)(?=Function :|\Z)" % kind, sass, re.S)
    return (m.group(1), len(re.findall(r"/\*[0-9a-f]{4}\*/", m.group(2)))) if m else None
out = {"device": open(w + "/device.txt").read().strip(), "launches": launches,
       "sass_instructions": {"small": instructions("1"), "large": instructions("2048")},
       "runs": {}}
for size in ("small", "large"):
    for d in (1, 16):
        n = f"{size}_{d}"
        try:
            p = json.load(open(f"{w}/{n}.json"))["profile"]
            ph = phases(f"{w}/{n}.err")
            by_pass = [float(x) for x in re.search(r"by pass \(s\): ([\d. ]+)",
                                                   " ".join(ph["notes"])).group(1).split()]
            out["runs"][n] = {
                "alone": open(f"{w}/{n}.alone").read().strip(),
                "profiled_launches": p["profiled_launches"],
                "ms_per_launch_after_setup": 1e3 * p["profile_overhead_per_launch_after_setup_s"],
                "launch_call_ms_per_launch_by_pass": [round(1e3 * s / launches, 3)
                                                      for s in by_pass],
                "ms_per_profiled_launch": ph}
        except Exception as e:
            out["runs"][n] = {"error": str(e), "stderr_tail": open(f"{w}/{n}.err").read()[-800:]}
print(json.dumps(out, indent=1))
PY

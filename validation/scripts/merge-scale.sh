#!/usr/bin/env bash
# How `roofline-cuda merge` scales: synthetic rank run files of LAUNCHES profiled launches each
# (default 10,000), merged at 256 and then 1,024 ranks (RANKS, default "256 1024"); wall time and
# peak RSS of each merge, and their ratios (linear: time about x4, memory flat). The files go to
# a scratch folder under TMPDIR (about 1.3 GB in and out at 1,024 ranks), removed at the end.
# No GPU needed. Writes $OUT/merge-scale.json.
# Usage: OUT=dir [RANKS="256 1024"] [LAUNCHES=10000] validation/scripts/merge-scale.sh BUILD
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD="${1:-build/ci}"
OUT="$(mkdir -p "${OUT:-out/merge-scale}" && cd "${OUT:-out/merge-scale}" && pwd)"
RC="$(cd "$BUILD" && pwd)/tools/roofline-cuda"
SCRATCH="$(mktemp -d "${TMPDIR:-/tmp}/roofkit-merge-scale-XXXXXX")"
trap 'rm -rf "$SCRATCH"' EXIT
python3 - "$RC" "$SCRATCH" "$OUT/merge-scale.json" "${RANKS:-256 1024}" "${LAUNCHES:-10000}" <<'PY'
import json, os, resource, subprocess, sys, time
rc, scratch, target, ranks_list, launches = sys.argv[1], sys.argv[2], sys.argv[3], [int(r) for r in sys.argv[4].split()], int(sys.argv[5])
kernels = ["gemm_kernel", "elementwise_kernel", "softmax_kernel", "layer_norm_kernel"]
ar = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"

def rank_file(rank, world):
    head = {"schema": "roofkit.run/1",
            "context": {"tool_version": "synthetic", "device": "NVIDIA H200", "cc": "9.0", "sms": 132},
            "ceilings": [],
            "kernels": [{"name": k, "time_s": {"median": 1e-4 * (i + 1), "min": 1e-4, "max": 2e-4, "n": launches // 4}}
                        for i, k in enumerate(kernels)]}
    profile = {"app": {"records_complete": True},
               "kernels": [{"name": k, "launches": launches // 4, "total_time_s": (i + 1 + rank % 7) * 0.01}
                           for i, k in enumerate(kernels)] + [{"name": ar, "launches": 50, "total_time_s": 0.02}]}
    mg = {"rank": rank, "world_size": world, "device": rank % 8, "status": "ok",
          "collectives": [{"index": i, "name": ar, "time_s": 4e-4, "op": "all_reduce", "bytes": 1 << 26,
                           "busbw_bytes_per_s": 3e11} for i in range(50)]}
    text = json.dumps(head)[:-1]
    launch = ('{"index":%d,"pid":%d,"stream":0,"name":"%s","launch":{"grid":[132,1,1],"block":[256,1,1]},'
              '"time_s":{"median":0.0001},"flops":{"fp32":1000000.0},"bytes":{"dram":4000000.0}}')
    body = ",".join(launch % (i, 1000 + rank, kernels[i % 4]) for i in range(launches))
    profile_text = json.dumps(profile)[:-1] + ',"launches":[' + body + "]}"
    return text + ',"profile":' + profile_text + ',"multi_gpu":' + json.dumps(mg) + "}"

results = []
for ranks in ranks_list:
    d = os.path.join(scratch, f"r{ranks}")
    os.makedirs(d)
    t = time.time()
    files = []
    for r in range(ranks):
        files.append(os.path.join(d, f"run.rank{r}.json"))
        with open(files[-1], "w") as f:
            f.write(rank_file(r, ranks))
    made = time.time() - t
    size = sum(os.path.getsize(f) for f in files)
    # A wrapper per merge: its children's peak RSS is this merge's alone.
    wrap = ("import resource, subprocess, sys; p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL); "
            "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    t = time.time()
    p = subprocess.run([sys.executable, "-c", wrap, rc, "merge", *files, "-o", os.path.join(d, "merged.json")],
                       capture_output=True, text=True)
    took = time.time() - t
    code, peak = (int(x) for x in p.stdout.split()[-2:])
    results.append({"ranks": ranks, "launches_per_rank": launches, "input_bytes": size,
                    "output_bytes": os.path.getsize(os.path.join(d, "merged.json")) if code == 0 else None,
                    "generate_s": made, "merge_wall_s": took, "merge_peak_rss_kib": peak,
                    "rc": code, "stderr_tail": p.stderr[-400:]})
    print(json.dumps(results[-1]), flush=True)
    subprocess.run(["rm", "-rf", d])
out = {"claim": "roofline-cuda merge is linear in time and flat in memory over ranks (synthetic rank files)",
       "command": f"validation/scripts/merge-scale.sh (RANKS='{' '.join(map(str, ranks_list))}' LAUNCHES={launches})",
       "host": os.uname().nodename, "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
       "git_revision": subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip(),
       "runs": results}
if len(results) >= 2 and results[0]["merge_wall_s"]:
    a, b = results[0], results[-1]
    out["time_ratio"] = b["merge_wall_s"] / a["merge_wall_s"]
    out["input_ratio"] = b["input_bytes"] / a["input_bytes"]
    out["peak_rss_ratio"] = b["merge_peak_rss_kib"] / a["merge_peak_rss_kib"]
json.dump(out, open(target, "w"), indent=2)
PY
echo "written: $OUT/merge-scale.json"

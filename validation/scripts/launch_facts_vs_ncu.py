"""Compares the launch facts of a `roofline-cuda profile` run with Nsight Compute's launch__*
metrics on the same application, launch by launch (the k-th profiled launch of a kernel against
ncu's k-th launch of it), and writes JSON with the device, date, revision and commands.
Exits 1 when a fact differs (waves per SM: by more than 1%)."""
import argparse
import os
import datetime
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ncu_csv  # noqa: E402

FACTS = [  # (our key, ncu metric)
    ("registers_per_thread", "launch__registers_per_thread"),
    ("static_smem_bytes", "launch__shared_mem_per_block_static"),
    ("dynamic_smem_bytes", "launch__shared_mem_per_block_dynamic"),
    ("grid_size", "launch__grid_size"),
    ("block_size", "launch__block_size"),
    ("cluster_x", "launch__cluster_dim_x"),
    ("cluster_y", "launch__cluster_dim_y"),
    ("cluster_z", "launch__cluster_dim_z"),
    ("waves_per_sm", "launch__waves_per_multiprocessor"),
]


def ours(launch):
    l = launch["launch"]
    grid, block = l["grid"], l["block"]
    cluster = l.get("cluster", [1, 1, 1])
    return {
        "registers_per_thread": l["registers_per_thread"],
        "static_smem_bytes": l["static_smem_bytes"],
        "dynamic_smem_bytes": l["dynamic_smem_bytes"],
        "grid_size": grid[0] * grid[1] * grid[2],
        "block_size": block[0] * block[1] * block[2],
        "cluster_x": cluster[0],
        "cluster_y": cluster[1],
        "cluster_z": cluster[2],
        "waves_per_sm": l.get("waves_per_sm"),
    }


def agree(key, a, b):
    if a is None or b is None:
        return False
    if key.startswith("cluster_"):  # ncu says 0 for a launch without a cluster; we say 1
        return max(a, 1) == max(b, 1)
    if key == "waves_per_sm":  # ncu prints two decimals: compare at its precision
        return abs(a - b) <= 0.005 + 1e-9 or abs(a - b) <= 0.01 * abs(b)
    return a == b


def revision():
    if os.environ.get("REV"):  # the device machine's copy may carry a stale .git
        return os.environ["REV"]
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", required=True)
    ap.add_argument("--ncu", required=True)
    ap.add_argument("--profile-command", default="")
    ap.add_argument("--ncu-command", default="")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    run = json.load(open(a.run))
    theirs_by_name = {}
    for l in ncu_csv.launches(a.ncu):
        theirs_by_name.setdefault(ncu_csv.base_name(l["kernel"]), []).append(l)
    seen = {}
    rows, mismatches = [], 0
    for l in sorted(run["profile"]["launches"], key=lambda x: (x["pid"], x["index"])):
        name = ncu_csv.base_name(l["name"])
        k = seen.get(name, 0)
        seen[name] = k + 1
        theirs = theirs_by_name.get(name, [])
        row = {"kernel": l["name"], "index": l["index"], "facts": {}}
        if k >= len(theirs):
            row["note"] = "no matching ncu launch"
            mismatches += 1
            rows.append(row)
            continue
        mine = ours(l)
        for key, metric in FACTS:
            b = theirs[k].get(metric)
            ok = agree(key, mine[key], b)
            mismatches += not ok
            row["facts"][key] = {"roofkit": mine[key], "ncu": b, "agree": ok}
        rows.append(row)
    ctx = run.get("context", {})
    out = {
        "schema": "roofkit.validation/1",
        "what": "launch facts of every profiled launch: roofline-cuda profile against ncu's "
                "launch__* metrics, launch by launch",
        "device": f"{ctx.get('device', '')}, driver {ctx.get('driver', '')}",
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "revision": revision(),
        "commands": [a.profile_command, a.ncu_command],
        "launches": len(rows),
        "mismatches": mismatches,
        "rows": rows,
    }
    Path(a.out).write_text(json.dumps(out, indent=1) + "\n")
    print(f"{len(rows)} launches, {mismatches} mismatching facts -> {a.out}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())

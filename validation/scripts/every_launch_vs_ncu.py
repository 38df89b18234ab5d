#!/usr/bin/env python3
"""The training step with every launch profiled, against Nsight Compute (issue 39), for
release-checks.sh's `everyncu` stage.

Usage: every_launch_vs_ncu.py DIR   one JSON line: profiler time per launch, the launch-by-launch
                                    comparison's verdict on counts, and DRAM agreement with ncu's
                                    one-pass values against ncu's own second run

DIR holds every.json (our run), every_ncu.out (ncu with our counter names), every_ncu_dram1.out
and every_ncu_dram2.out (ncu with the two DRAM metrics alone, twice) and every_ncu_dram_moved*.out
(the same with the step's memory on other physical pages), as release-checks.sh's check() leaves
them. A launch whose DRAM bytes depend on where its buffers lie (writes that are L2 evictions,
set by which lines share a set) agrees with ncu's first run only when the pages are the same:
the moved runs show how far ncu itself moves then."""
import glob
import json
import os
import subprocess
import sys

import ncu_csv

HERE = os.path.dirname(os.path.abspath(__file__))


def judge(d):
    run = json.load(open(os.path.join(d, "every.json")))["profile"]
    compare = json.loads(subprocess.run(
        [sys.executable, os.path.join(HERE, "profile-compare.py"), os.path.join(d, "every.json"),
         os.path.join(d, "every_ncu.out"), "--dram", os.path.join(d, "every_ncu_dram1.out")],
        check=True, capture_output=True, text=True).stdout)
    dram_runs = {os.path.basename(p)[len("every_ncu_"):-len(".out")]: {
        r["ID"]: r for r in ncu_csv.rows(p)}
        for p in sorted(glob.glob(os.path.join(d, "every_ncu_dram*.out")))}
    dram_misses = []
    for launch in compare.get("launches", []):
        m = launch.get("metrics", {})
        for k in ("dram__bytes_read.sum", "dram__bytes_write.sum"):
            if k in m and not m[k]["ok"]:
                dram_misses.append({"name": launch["name"][:80], "metric": k,
                                    "ours": m[k]["ours"], "ncu": m[k]["ncu"],
                                    "ncu_every_run": {
                                        run: ncu_csv.num(rows[launch["ncu_id"]][k])
                                        for run, rows in dram_runs.items()
                                        if launch.get("ncu_id") in rows}})
    return {
        "check": "every_launch_vs_ncu",
        "profiled_launches": run.get("profiled_launches"),
        "inferred_launches": run.get("inferred_launches"),
        "profile_overhead_s": run.get("profile_overhead_s"),
        "profile_overhead_per_launch_ms": 1e3 * (run.get("profile_overhead_per_launch_s") or 0),
        "launches_ours": compare["launches_ours"],
        "launches_ncu": compare["launches_ncu"],
        "launches_matched": compare["launches_matched"],
        "counts_unequal": compare["counts_unequal"],
        "counts_varying_under_ncu": compare["counts_varying_under_ncu"],
        "bytes_over_1pct": compare["bytes_over_1pct"],
        "verdict": compare["verdict"],
        "dram_ours_vs_ncu_one_pass": ncu_csv.ours_dram_agreement(compare),
        "dram_ncu_second_vs_first": ncu_csv.dram_agreement(
            os.path.join(d, "every_ncu_dram1.out"), os.path.join(d, "every_ncu_dram2.out")),
        "dram_ncu_moved_vs_first": {
            os.path.basename(p)[len("every_ncu_dram_"):-len(".out")]: ncu_csv.dram_agreement(
                os.path.join(d, "every_ncu_dram1.out"), p)
            for p in sorted(glob.glob(os.path.join(d, "every_ncu_dram_moved*.out")))},
        "dram_misses_ours": dram_misses[:40],
    }


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    print(json.dumps(judge(sys.argv[1])))

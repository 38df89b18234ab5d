#!/usr/bin/env python3
"""Tabulates validation/lab/l2-passes.sh: the L2 and L1 active-cycle counters of every roofkit-suite
launch under roofkit and under ncu's three ways of collecting them, each ncu way's difference
from roofkit, and how many launches agree within 0.1%.
Usage: l2_passes_json.py DIR REVISION > out.json"""
import json
import statistics
import sys

from dram_compare_json import load  # the same directory

L2, L1 = "lts__lts2xbar_cycles_active.sum", "l1tex__lsu_writeback_active_mem_lgds.sum"
RUNS = ("ncu-one-pass", "ncu-kernel-replay", "ncu-app-replay")


def main():
    d, revision = sys.argv[1], sys.argv[2]
    names, ours = load(f"{d}/ours.json")
    ncu = {r: load(f"{d}/{r}.csv")[1] for r in RUNS}
    rows = []
    for i, name in enumerate(names):
        if name.startswith("primer/"):
            continue
        row = {"kernel": name}
        for m, key in ((L2, "l2"), (L1, "l1")):
            row[f"{key}_roofkit"] = ours[i].get(m)
            for r in RUNS:
                v = ncu[r][i].get(m) if i < len(ncu[r]) else None
                row[f"{key}_{r}"] = v
                if v and row[f"{key}_roofkit"] is not None:
                    row[f"{key}_roofkit_vs_{r}_pct"] = round(100 * (row[f"{key}_roofkit"] / v - 1), 3)
        rows.append(row)
    summary = {}
    for key in ("l2", "l1"):
        for r in RUNS:
            diffs = [row[f"{key}_roofkit_vs_{r}_pct"] for row in rows
                     if f"{key}_roofkit_vs_{r}_pct" in row]
            summary[f"{key}: roofkit vs {r}"] = {
                "launches": len(diffs),
                "within_0.1pct": sum(abs(x) <= 0.1 for x in diffs),
                "median_pct": round(statistics.median(diffs), 3) if diffs else None,
            }
    json.dump({"schema": "roofkit.validation/1",
               "what": "L2 (lts__lts2xbar_cycles_active) and L1 (l1tex__lsu_writeback_active_mem_lgds) active cycles of every roofkit-suite launch: roofkit's profiler (profile-each, bench metric set) against ncu collecting the two alone (one pass), with roofkit's metric list under kernel replay, and under application replay; cache control all, clocks not locked",
               "command": "OUT=... validation/lab/l2-passes.sh; validation/lab/l2_passes_json.py OUT/l2-passes REVISION",
               "git_revision": revision, "summary": summary, "rows": rows}, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()

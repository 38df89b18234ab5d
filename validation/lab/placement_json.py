#!/usr/bin/env python3
"""Tabulates validation/lab/placement.sh's results: DRAM bytes per launch under ncu's one-pass
collection and under roofkit, for each padding, and how often each pair agrees within 1% or
64 KiB. Usage: placement_json.py DIR REVISION > dram-placement-<gpu>.json"""
import json
import sys

from dram_compare_json import load  # the same directory

KIB64 = 65536
PADS = (0, 256, 1024)
READ, WRITE = "dram__bytes_read.sum", "dram__bytes_write.sum"


def close(a, b):
    return abs(a - b) <= max(0.01 * abs(b), KIB64)


def main():
    d, revision = sys.argv[1], sys.argv[2]
    ncu = {p: load(f"{d}/ncu-pad{p}.csv")[1] for p in PADS}
    ours = {p: list(zip(*load(f"{d}/ours-pad{p}.json"))) for p in PADS}
    rows, primer = [], []
    agree = {"ncu_pad256_vs_ncu_pad0": 0, "ncu_pad1024_vs_ncu_pad0": 0}
    agree.update({f"roofkit_vs_ncu_pad{p}": 0 for p in PADS})
    agree.update({f"roofkit_pad{p}_within_ncu_range_over_pads": 0 for p in PADS})
    reads_agree = 0
    for i, (name, _) in enumerate(ours[0]):
        row = {"kernel": name}
        for p in PADS:
            row[f"ncu_pad{p}_write"] = ncu[p][i][WRITE]
            row[f"roofkit_pad{p}_write"] = ours[p][i][1][WRITE]
            row[f"ncu_pad{p}_read"] = ncu[p][i][READ]
            row[f"roofkit_pad{p}_read"] = ours[p][i][1][READ]
        if name.startswith("primer/"):
            primer.append(row)
            continue
        rows.append(row)
        for p in (256, 1024):
            agree[f"ncu_pad{p}_vs_ncu_pad0"] += close(row[f"ncu_pad{p}_write"], row["ncu_pad0_write"])
        values = [row[f"ncu_pad{p}_write"] for p in PADS]
        lo, hi = min(values), max(values)
        for p in PADS:
            mine = row[f"roofkit_pad{p}_write"]
            agree[f"roofkit_vs_ncu_pad{p}"] += close(mine, row[f"ncu_pad{p}_write"])
            agree[f"roofkit_pad{p}_within_ncu_range_over_pads"] += (
                lo - max(0.01 * lo, KIB64) <= mine <= hi + max(0.01 * hi, KIB64))
            reads_agree += close(row[f"roofkit_pad{p}_read"], row[f"ncu_pad{p}_read"])
    out = {
        "schema": "roofkit.validation/1",
        "what": "DRAM bytes of every bundled kernel launch (roofkit-suite, after a primer of two "
                "L2 flushes) under ncu's one-pass collection and roofkit's profiler, each with "
                "an untouched allocation of 0, 256 or 1024 MiB made first "
                "(ROOFKIT_SUITE_PAD_MB), which moves every buffer in device memory",
        "command": "OUT=... validation/lab/placement.sh; validation/lab/placement_json.py "
                   "OUT/placement REVISION",
        "ncu_command": "ncu --cache-control all --clock-control none --profile-from-start off "
                       "--print-units base --csv --metrics dram__bytes_read.sum,"
                       "dram__bytes_write.sum roofkit-suite plain",
        "roofkit_command": "roofkit-suite profile-each all OUT.json",
        "git_revision": revision,
        "rule": "within 1% or 64 KiB, whichever is larger",
        "launches": len(rows),
        "write_agreement": agree,
        "read_agreement": {"roofkit_vs_ncu_same_pad": reads_agree, "of": 3 * len(rows)},
        "primer": primer,
        "rows": rows,
    }
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()

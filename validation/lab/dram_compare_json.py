#!/usr/bin/env python3
"""DRAM write bytes of every roofkit-suite launch from several runs (ncu CSV exports or
roofkit-suite profile JSON files), side by side, and how often each pair of runs agrees within
1% or 64 KiB (the primer's launches apart).
Usage: dram_compare_json.py LABEL=FILE ... [--pairs A:B,C:D] > out.json"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
from ncu_csv import launches  # noqa: E402

KIB64 = 65536
WRITE = "dram__bytes_write.sum"


def load(path):
    if path.endswith(".csv"):
        return None, launches(path)
    doc = json.load(open(path))
    flat = [(k["name"], v) for k in doc["kernels"] for v in k["launches"]]
    return [n for n, _ in flat], [v for _, v in flat]


def main():
    args = sys.argv[1:]
    pairs = []
    if "--pairs" in args:
        i = args.index("--pairs")
        pairs = [tuple(p.split(":")) for p in args[i + 1].split(",")]
        del args[i:i + 2]
    runs, names = {}, None
    for a in args:
        label, path = a.split("=", 1)
        n, values = load(path)
        runs[label] = values
        names = names or n
    agree = {f"{a} vs {b}": 0 for a, b in pairs}
    rows, primer = [], []
    for i, name in enumerate(names):
        row = {"kernel": name}
        row.update({label: v[i].get(WRITE) for label, v in runs.items()})
        if name.startswith("primer/"):
            primer.append(row)
            continue
        rows.append(row)
        for a, b in pairs:
            agree[f"{a} vs {b}"] += abs(row[a] - row[b]) <= max(0.01 * abs(row[b]), KIB64)
    json.dump({"metric": WRITE, "rule": "within 1% or 64 KiB, whichever is larger",
               "launches": len(rows), "agreement": agree, "primer": primer, "rows": rows},
              sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()

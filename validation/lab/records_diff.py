#!/usr/bin/env python3
"""Two roofkit record logs of the same application, launch by launch (in launch order, profiled
launches only): instruction counts (every `sass` counter) must be equal, DRAM bytes within 1% or
64 KiB; every other counter's largest relative difference is listed.

Usage: records_diff.py A.jsonl B.jsonl   one JSON object on stdout"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
from ncu_csv import dram_close  # noqa: E402


def profiled(path):
    out = []
    for line in open(path):
        j = json.loads(line)
        if j.get("type") == "launch" and j.get("counters"):
            out.append(j)
    return out


def main(a_path, b_path):
    a, b = profiled(a_path), profiled(b_path)
    unequal_sass, dram_miss, matched, worst = 0, 0, 0, {}
    for x, y in zip(a, b):
        if x.get("name") != y.get("name"):
            continue
        matched += 1
        for k, va in x["counters"].items():
            vb = y["counters"].get(k)
            if vb is None:
                continue
            if "sass" in k:
                unequal_sass += va != vb
            elif k.startswith("dram__bytes"):
                dram_miss += not dram_close(va, vb)
            else:
                rel = abs(va - vb) / max(abs(va), abs(vb), 1e-30)
                worst[k] = max(worst.get(k, 0.0), rel)
    print(json.dumps({"launches_a": len(a), "launches_b": len(b), "matched": matched,
                      "sass_counts_unequal": unequal_sass, "dram_outside_1pct_or_64k": dram_miss,
                      "largest_relative_difference": dict(sorted(worst.items()))}, indent=1))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

#!/usr/bin/env python3
"""Summarises validation/lab/torch-placement.sh: the DRAM bytes of each launch in the PyTorch
script's range "ops" under ncu and roofline-cuda profile for each pad, and how many agree within
1% or 64 KiB (the rule of validation/scripts/profile-compare.py --dram) between ncu's runs, between ours, and
between the two tools at the same pad.
Usage: validation/lab/torch_placement_json.py DIR REVISION > out.json"""
import glob
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "scripts"))
from ncu_csv import base_name, num, rows  # noqa: E402

METRICS = ("dram__bytes_read.sum", "dram__bytes_write.sum")


def ncu_launches(path):
    # The primer's two sums come first; the range "ops" holds the last ten launches.
    out = [{"kernel": r["Kernel Name"], **{m: num(r[m]) for m in METRICS}} for r in rows(path)]
    return [l for l in out if "reduce_kernel" not in l["kernel"]]


def our_launches(path):
    out = []
    for line in open(path):
        j = json.loads(line)
        if j.get("type") == "launch":
            out.append({"kernel": j["name"], **{m: j["counters"].get(m) for m in METRICS}})
    return out


def agree(a, b):
    return a is not None and b is not None and abs(a - b) <= max(0.01 * abs(b), 65536)


def main():
    d, revision = sys.argv[1], sys.argv[2]
    runs = sorted({os.path.basename(p)[len("ncu-pad"):-4] for p in glob.glob(f"{d}/ncu-pad*.csv")},
                  key=lambda r: (int(r.rstrip("ab")), r))
    data = {}
    for r in runs:
        data[f"ncu-pad{r}"] = ncu_launches(f"{d}/ncu-pad{r}.csv")
        if os.path.exists(f"{d}/ours-pad{r}.jsonl"):
            data[f"ours-pad{r}"] = our_launches(f"{d}/ours-pad{r}.jsonl")
    ref = data[f"ncu-pad{runs[0]}"]
    rows_out = []
    for i, l in enumerate(ref):
        for m in METRICS:
            row = {"launch": i, "kernel": base_name(l["kernel"]), "metric": m}
            for k, v in data.items():
                row[k] = v[i][m] if i < len(v) and base_name(v[i]["kernel"]) == base_name(l["kernel"]) else None
            rows_out.append(row)

    def count(a, b):
        return sum(agree(r[a], r[b]) for r in rows_out if a in r and b in r)

    pairs = {}
    keys = list(data)
    for a in keys:
        for b in keys:
            if a < b:
                pairs[f"{a} vs {b}"] = count(a, b)
    json.dump({
        "schema": "roofkit.validation/1",
        "what": "DRAM bytes of the PyTorch script's launches in its NVTX range ops (tests/apps/torch_ops.py) under ncu's one-pass DRAM collection and roofline-cuda profile, with an untouched allocation of 0 (twice: runs 0a and 0b), 256 or 1024 MiB made before every tensor (TORCH_OPS_PAD_MB), which moves every later buffer; cache control all, clocks not locked",
        "command": "OUT=... validation/lab/torch-placement.sh; validation/lab/torch_placement_json.py OUT/torch-placement REVISION",
        "git_revision": revision,
        "rule": "within 1% or 64 KiB, whichever is larger",
        "values": len(rows_out),
        "agreement": pairs,
        "rows": rows_out,
    }, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""For dram-repeat.sh: dram_repeat_json.py DIR REV prints the evidence JSON from DIR's runs
(ours1-3.json: roofline-cuda profile runs; ncu1-2.csv: ncu's one-pass DRAM exports).

Each of our runs is compared with ncu's first by profile-compare.py (--dram), our runs with each
other launch by launch in launch order (the step launches the same kernels in the same order
every run), and ncu's second run with its first (ncu_csv.dram_agreement); all with the same rule,
within 1% or 64 KiB. A miss is listed with its launch index in our run, its kernel, both values
and the launch before it."""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))
import ncu_csv  # noqa: E402
import lab_json  # noqa: E402
from lab_json import record  # noqa: E402

METRICS = ("dram__bytes_read.sum", "dram__bytes_write.sum")


def against_ncu(d, run):
    out = subprocess.run([sys.executable, os.path.join(HERE, "..", "scripts", "profile-compare.py"),
                          os.path.join(d, run + ".json"), os.path.join(d, "ncu1.csv"), "--dram",
                          os.path.join(d, "ncu1.csv")], check=True, capture_output=True,
                         text=True).stdout
    compare = json.loads(out)
    ours = json.load(open(os.path.join(d, run + ".json")))["profile"]["launches"]
    misses = []
    for i, l in enumerate(compare.get("launches", [])):
        for k in METRICS:
            m = l.get("metrics", {}).get(k)
            if m and not m["ok"]:
                misses.append({"index": i, "kernel": ncu_csv.base_name(l["name"]), "metric": k,
                               "ours": m["ours"], "ncu": m["ncu"],
                               "before": ncu_csv.base_name(ours[i - 1]["name"]) if i else ""})
    return {"agreement": ncu_csv.ours_dram_agreement(compare), "misses": misses}


def dram_of(d, run):
    return [tuple(l.get("counters", {}).get(k) for k in METRICS)
            for l in json.load(open(os.path.join(d, run + ".json")))["profile"]["launches"]]


def profiler_ms_per_launch(d, run):
    """The run's profiler time per profiled launch (profile_overhead_per_launch_s), in ms."""
    profile = json.load(open(os.path.join(d, run + ".json")))["profile"]
    return round(1e3 * (profile.get("profile_overhead_per_launch_s") or 0), 3)


def ours_against_ours(d, a, b):
    x, y = dram_of(d, a), dram_of(d, b)
    pairs = [(p, q) for p, q in zip(x, y) if None not in p and None not in q]
    agree = sum(all(ncu_csv.dram_close(u, v) for u, v in zip(p, q)) for p, q in pairs)
    return {"matched": len(pairs), "agree": agree, "launches": [len(x), len(y)]}


def report(d, rev):
    runs = ["ours1", "ours2", "ours3"]
    return record(
        "one training step with every launch profiled, three times, and ncu's one-pass DRAM "
        "values twice: which launches miss ncu's first run in each of ours (within 1% or "
        "64 KiB), our runs against each other, ncu's second against its first",
        lab_json.with_profile_args("REV=rev validation/lab/dram-repeat.sh BUILD"), rev,
        device=(lab_json.gpus("name,driver_version,clocks.sm,clocks.mem") or [""])[0],
        ours_vs_ncu_first={r: against_ncu(d, r) for r in runs},
        ours_vs_ours={f"{a}_vs_{b}": ours_against_ours(d, a, b)
                      for a, b in (("ours1", "ours2"), ("ours1", "ours3"), ("ours2", "ours3"))},
        ncu_second_vs_first=ncu_csv.dram_agreement(os.path.join(d, "ncu1.csv"),
                                                   os.path.join(d, "ncu2.csv")),
        profiler_ms_per_launch={r: profiler_ms_per_launch(d, r) for r in runs})


if __name__ == "__main__":
    sys.exit(lab_json.main(sys.argv, report, __doc__))

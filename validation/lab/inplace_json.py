#!/usr/bin/env python3
"""The DRAM bytes of validation/lab/inplace-sweep.sh and inplace-flush.sh, launch by launch, for
every run in OUT_DIR: ncu exports (*.csv, ncu --csv --page raw with the two DRAM metrics) and
roofline-cuda profile runs (*.json), each labelled by its file name. Each run is compared with
the run labelled "roofkit". Usage: inplace_json.py OUT_DIR "COMMAND" MIB... > out.json"""
import glob
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
from ncu_csv import num, rows  # noqa: E402


def ncu_launches(path):
    return [(d["Kernel Name"].split("(")[0], num(d["dram__bytes_read.sum"]),
             num(d["dram__bytes_write.sum"])) for d in rows(path)]


def roofkit_launches(run):
    return [(l["name"].split("(")[0], l["counters"]["dram__bytes_read.sum"],
             l["counters"]["dram__bytes_write.sum"]) for l in run["profile"]["launches"]]


def main():
    out_dir, command, sizes = sys.argv[1], sys.argv[2], sys.argv[3:]
    runs, meta = {}, {}
    for path in sorted(glob.glob(os.path.join(out_dir, "*.csv"))):
        runs[os.path.basename(path)[:-4]] = ncu_launches(path)
    for path in sorted(glob.glob(os.path.join(out_dir, "*.json"))):
        j = json.load(open(path))
        if "profile" in j:
            label = os.path.basename(path)[:-5]
            runs[label] = roofkit_launches(j)
            meta[label] = j
    labels = [("primer_sum", None, k) for k in (1, 2)]
    labels += [("inplace", int(mib), k) for mib in sizes for k in (1, 2, 3)]
    launches = []
    for i, (kernel, mib, k) in enumerate(labels):
        row = {"kernel": kernel, "mib": mib, "launch": k,
               "written_mb": round(mib * 1.048576, 3) if mib else 0.0,
               "write_mb": {}, "read_mb": {}}
        for label, rows in runs.items():
            if i < len(rows) and rows[i][0] == kernel:
                row["read_mb"][label] = round(rows[i][1] / 1e6, 3)
                row["write_mb"][label] = round(rows[i][2] / 1e6, 3)
        launches.append(row)
    # Per size and run: its writes minus roofkit's (MB), over the three launches.
    summary = []
    for mib in [None] + [int(m) for m in sizes]:
        rows = [r for r in launches if r["mib"] == mib and "roofkit" in r["write_mb"]]
        for label in runs:
            if label == "roofkit":
                continue
            pairs = [(r["write_mb"][label], r["write_mb"]["roofkit"]) for r in rows
                     if label in r["write_mb"]]
            if not pairs:
                continue
            diffs = sorted(a - b for a, b in pairs)
            ok = sum(abs(a - b) <= max(0.01 * a, 65536 / 1e6) for a, b in pairs)
            summary.append({"kernel": rows[0]["kernel"], "mib": mib, "run": label,
                            "minus_roofkit_write_mb": {"min": round(diffs[0], 3),
                                                       "median": round(diffs[len(diffs) // 2], 3),
                                                       "max": round(diffs[-1], 3)},
                            "within_1pct_or_64kib": f"{ok} of {len(pairs)}"})
    ref = meta.get("roofkit", {})
    ctx = ref.get("context", {})
    clocks = sorted(l["clocks"]["sm_mhz"] for l in ref.get("profile", {}).get("launches", [])
                    if l.get("clocks", {}).get("sm_mhz"))
    print(json.dumps({
        "schema": "roofkit.validation/1",
        "what": "DRAM bytes of an in-place kernel (x = 2x + 1) per buffer size, three launches "
                "each after a primer of two read sums, under roofline-cuda profile and ncu with "
                "the two DRAM metrics alone (one pass); runs named by their file",
        "command": command,
        "device": ctx.get("device", ""),
        "cuda_driver": ctx.get("driver", ""),
        "git_revision": ctx.get("git_revision", ""),
        "date": ctx.get("date", ""),
        "sm_clock_mhz_median": round(clocks[len(clocks) // 2], 1) if clocks else None,
        "runs": sorted(runs),
        "summary": summary,
        "launches": launches}, indent=1))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Turns the raw outputs of validation/scripts/ncu-dram-passes.sh into validation/data/ncu-dram-passes-<gpu>.json.

usage: ncu_dram_passes.py RAW.tgz PROFILER_COST.jsonl OUT.json --device TEXT --revision REV
                          [--cost-note TEXT] [--finding TEXT]

RAW.tgz holds ours-{all,all-evict,each}.json (roofkit-suite) and ncu-dram-1pass{,-again}.csv,
ncu-dram-2pass.csv (ncu with the DRAM metrics alone, and with one SASS counter beside them)."""
import argparse
import datetime
import json
import tarfile

from ncu_csv import launches_of_text

W, R = "dram__bytes_write.sum", "dram__bytes_read.sum"


def within(a, b):  # the comparisons' rule: 1% or 64 KiB, whichever is larger
    return abs(a - b) <= max(0.01 * abs(b), 65536)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("raw")
    ap.add_argument("cost")
    ap.add_argument("out")
    ap.add_argument("--device", required=True)
    ap.add_argument("--revision", required=True)
    ap.add_argument("--cost-note", default="")
    ap.add_argument("--finding", default="")
    a = ap.parse_args()
    tf = tarfile.open(a.raw)
    read = lambda n: tf.extractfile("./" + n).read().decode()
    ours = {}
    for mode in ("all", "all-evict", "each"):
        try:
            doc = json.loads(read(f"ours-{mode}.json"))
        except KeyError:
            continue
        ours[mode] = [v for k in doc["kernels"] for v in k["launches"]]
    names = [k["name"] for k in json.loads(read("ours-all.json"))["kernels"]
             for _ in k["launches"]]
    n1, n1b, n2 = (launches_of_text(read(f"ncu-dram-{x}.csv"))
                   for x in ("1pass", "1pass-again", "2pass"))
    rows = []
    for i, name in enumerate(names):
        row = {"kernel": name}
        for mode, values in ours.items():
            row[f"roofkit_{mode}_write"] = values[i][W]
            row[f"roofkit_{mode}_read"] = values[i][R]
        row.update({"ncu_1pass_write": n1[i][W], "ncu_1pass_again_write": n1b[i][W],
                    "ncu_2pass_write": n2[i][W], "ncu_1pass_read": n1[i][R],
                    "ncu_2pass_read": n2[i][R]})
        rows.append(row)
    count = lambda a_, b_: sum(within(r[a_], r[b_]) for r in rows)
    summary = {f"roofkit_{m}_vs_ncu_1pass": {"write": count(f"roofkit_{m}_write", "ncu_1pass_write"),
                                             "read": count(f"roofkit_{m}_read", "ncu_1pass_read")}
               for m in ours}
    summary["ncu_1pass_again_vs_ncu_1pass"] = {"write": count("ncu_1pass_again_write",
                                                              "ncu_1pass_write")}
    summary["ncu_2pass_vs_ncu_1pass"] = {"write": count("ncu_2pass_write", "ncu_1pass_write"),
                                         "read": count("ncu_2pass_read", "ncu_1pass_read")}
    extra = sorted(r["ncu_2pass_write"] - r["ncu_1pass_write"] for r in rows
                   if r["ncu_1pass_write"] > 0)
    summary["ncu_2pass_minus_1pass_write_median_bytes"] = extra[len(extra) // 2]
    doc = {
        "schema": "roofkit.validation/1",
        "what": "Where ncu's extra DRAM writes come from, and what each replay pass of the range "
                "profiler costs. DRAM read and write bytes of every bundled kernel launch under "
                "roofkit's profiler (bench metric set, cache control all: 'all' discards the "
                "flush's lines so the L2 starts empty, 'all-evict' leaves them clean, 'each' "
                "profiles one kernel at a time in plain's allocation order) and under ncu "
                "--cache-control all (kernel replay) with the two DRAM metrics alone (one pass, "
                "twice) and with one SASS-patched metric beside them (two passes). Then "
                "roofkit-profiler-cost: range-profiler time per pass by metric kind and "
                "profiling mode.",
        "device": a.device,
        "date": datetime.date.today().isoformat(),
        "git_revision": a.revision,
        "command": "validation/scripts/ncu-dram-passes.sh build/gpu, then validation/scripts/ncu_dram_passes.py",
        "rule": "within 1% or 64 KiB, whichever is larger",
        "summary": summary,
        "finding": a.finding,
        "profiler_cost_note": a.cost_note,
        "profiler_cost": [json.loads(l) for l in open(a.cost)],
        "rows": rows,
    }
    json.dump(doc, open(a.out, "w"), indent=1)
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()

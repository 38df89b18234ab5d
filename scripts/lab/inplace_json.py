#!/usr/bin/env python3
"""The DRAM bytes of scripts/lab/inplace-sweep.sh, launch by launch: roofline-cuda profile's run
and ncu's two one-pass exports. Usage: inplace_json.py OUT_DIR MIB... > inplace-sweep.json"""
import csv
import io
import json
import os
import sys


def ncu_launches(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    start = text.find('"ID","Process ID"')
    if start < 0:
        return []
    rows = list(csv.reader(io.StringIO(text[start:])))
    header, out = rows[0], []
    for r in rows[1:]:
        if len(r) != len(header) or not r[0].isdigit():
            continue
        d = dict(zip(header, r))
        out.append((d["Kernel Name"].split("(")[0],
                    float(d["dram__bytes_read.sum"]), float(d["dram__bytes_write.sum"])))
    return out


def main():
    out_dir, sizes = sys.argv[1], sys.argv[2:]
    run = json.load(open(os.path.join(out_dir, "roofkit.json")))
    ours = [(l["name"].split("(")[0], l["counters"]["dram__bytes_read.sum"],
             l["counters"]["dram__bytes_write.sum"]) for l in run["profile"]["launches"]]
    ncu = [ncu_launches(os.path.join(out_dir, f"ncu-{i}.csv")) for i in (1, 2)]
    labels = [("primer_sum", None, k) for k in (1, 2)]
    labels += [("inplace", int(mib), k) for mib in sizes for k in (1, 2, 3)]
    launches = []
    for i, (kernel, mib, k) in enumerate(labels):
        row = {"kernel": kernel, "mib": mib, "launch": k,
               "written_mb": round(mib * 1.048576, 3) if mib else 0.0}
        if i < len(ours) and ours[i][0] == kernel:
            row["roofkit_read_mb"] = round(ours[i][1] / 1e6, 3)
            row["roofkit_write_mb"] = round(ours[i][2] / 1e6, 3)
        row["ncu_read_mb"] = [round(n[i][1] / 1e6, 3) for n in ncu if i < len(n)]
        row["ncu_write_mb"] = [round(n[i][2] / 1e6, 3) for n in ncu if i < len(n)]
        launches.append(row)
    print(json.dumps({
        "schema": "roofkit.validation/1",
        "what": "DRAM bytes of an in-place kernel (x = 2x + 1) per buffer size, three launches "
                "each after a primer, under roofline-cuda profile and ncu (cache control all, "
                "the DRAM metrics alone, one pass, two runs)",
        "command": "OUT=dir scripts/lab/inplace-sweep.sh " + " ".join(sizes),
        "launches": launches}, indent=1))


if __name__ == "__main__":
    main()

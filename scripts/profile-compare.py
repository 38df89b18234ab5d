#!/usr/bin/env python3
"""Compares `roofline-cuda profile` with Nsight Compute launch by launch.

Usage: scripts/profile-compare.py RUN.json NCU.csv [--what TEXT] [--command TEXT] > out.json

RUN.json is a run written by `roofline-cuda profile -o`; NCU.csv an export of the same
application made with `ncu --metrics <the run's counter names> --print-units base --csv --page
raw` and the same cache and clock control. Launches are matched in order within each kernel
name. Counts (instructions, sectors, requests, cycles) must be equal; bytes within 1%; times and
clocks are reported, not judged (each pass runs at its own clock)."""
import csv
import io
import json
import sys


def ncu_rows(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    start = text.find('"ID","Process ID"')
    if start < 0:
        sys.exit(f"{path}: no ncu raw-page header")
    rows = list(csv.reader(io.StringIO(text[start:])))
    header, body = rows[0], rows[1:]
    if body and body[0] and body[0][0] == "":
        body = body[1:]  # units row
    out = []
    for r in body:
        if len(r) != len(header) or r[0].startswith("=="):
            continue
        out.append(dict(zip(header, r)))
    return out


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def kind(metric):
    if "bytes" in metric:
        return "bytes"
    if "time" in metric or "per_second" in metric or "pct" in metric or ".avg" in metric:
        return "rate"
    return "count"


def main():
    args = sys.argv[1:]
    what = command = ""
    if "--what" in args:
        i = args.index("--what")
        what = args[i + 1]
        del args[i:i + 2]
    if "--command" in args:
        i = args.index("--command")
        command = args[i + 1]
        del args[i:i + 2]
    run = json.load(open(args[0]))
    ncu = ncu_rows(args[1])
    ours = run["profile"]["launches"]
    by_name = {}
    for r in ncu:
        by_name.setdefault(r["Kernel Name"], []).append(r)
    seen = {}
    launches = []
    worst = {"count": 0.0, "bytes": 0.0}
    unequal_counts = 0
    bytes_over = 0
    for l in ours:
        name = l["name"]
        # ncu prints demangled names without parameter lists for some kernels: try both.
        candidates = [n for n in by_name if n == name or name.startswith(n + "(") or n == name.split("(")[0]]
        if not candidates:
            launches.append({"name": name, "matched": False})
            continue
        key = candidates[0]
        i = seen.get(key, 0)
        seen[key] = i + 1
        if i >= len(by_name[key]):
            launches.append({"name": name, "matched": False})
            continue
        row = by_name[key][i]
        diffs = {}
        for metric, ours_v in l["counters"].items():
            if metric.startswith("roofkit__") or metric not in row:
                continue
            theirs = number(row[metric])
            if theirs is None:
                continue
            k = kind(metric)
            rel = abs(ours_v - theirs) / abs(theirs) if theirs else (0.0 if ours_v == 0 else 1.0)
            ok = None
            if k == "count":
                ok = ours_v == theirs
                unequal_counts += 0 if ok else 1
            elif k == "bytes":
                ok = rel <= 0.01
                bytes_over += 0 if ok else 1
            if k in worst:
                worst[k] = max(worst[k], rel)
            diffs[metric] = {"ours": ours_v, "ncu": theirs, "rel_diff": rel, "kind": k, "ok": ok}
        launches.append({"name": name, "matched": True, "ncu_id": row["ID"], "metrics": diffs})
    matched = sum(1 for l in launches if l["matched"])
    out = {
        "schema": "roofkit.validation/1",
        "what": what or "roofline-cuda profile against ncu, launch by launch",
        "command": command,
        "device": run["context"].get("device", ""),
        "date": run["context"].get("date", ""),
        "git_revision": run["context"].get("git_revision", ""),
        "cache_control": run["context"].get("cache_control", ""),
        "rule": "counts equal; bytes within 1%; rates and times reported only",
        "launches_ours": len(ours),
        "launches_ncu": len(ncu),
        "launches_matched": matched,
        "counts_unequal": unequal_counts,
        "bytes_over_1pct": bytes_over,
        "worst_rel_diff": worst,
        "verdict": "pass" if matched and unequal_counts == 0 and bytes_over == 0 else "fail",
        "launches": launches,
    }
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()

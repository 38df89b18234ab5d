#!/usr/bin/env python3
"""Compares `roofline-cuda profile` with Nsight Compute launch by launch.

Usage: validation/scripts/profile-compare.py RUN.json NCU.csv [--dram NCU_DRAM.csv] [--what TEXT]
                                  [--command TEXT] > out.json

RUN.json is a run written by `roofline-cuda profile -o`; NCU.csv an export of the same
application made with `ncu --metrics <the run's counter names> --print-units base --csv --page
raw` and the same cache and clock control. Launches are matched in order within each kernel's
base name (its identifier without scope, template arguments and parameters), grid and block:
two kernels of one base name (cuDNN's CUTLASS `Kernel<...>` of a convolution and of its split-K
reduction) are not matched with each other when one of them is missing on a side. SASS-level
counts (instructions, sectors, branch targets) must be equal; bytes within 1%; hardware event
counters (cycles, wavefronts, bank conflicts), times and clocks are reported, not judged. A count
that ncu itself gives differently for two launches of one kernel with the same grid and block
(a kernel that spins on a flag or a grid barrier polls a timing-dependent number of times) is
reported with ncu's own range as "varies" and counted apart, not judged.

With --dram, DRAM bytes are judged against that export instead: ncu run with the two DRAM
metrics alone, which it collects in one pass. With more passes its kernel replay restores
device memory before each later pass, and the restore's dirty lines add about 2.2 MB of writes
to the pass that holds the DRAM counters (validation/scripts/ncu-dram-passes.sh); the multi-pass value is
kept beside it. DRAM bytes pass within 1% or 64 KiB, whichever is larger."""
import json
import sys

from ncu_csv import base_name, rows_of_text, shape


def ncu_rows(path):
    found = rows_of_text(open(path, encoding="utf-8", errors="replace").read())
    if found is None:
        sys.exit(f"{path}: no ncu raw-page header")
    return found


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


# The same classes as validation/scripts/ncu_suite_compare.py: SASS-level counts are deterministic for a
# deterministic kernel (a kernel that schedules its work dynamically, such as a persistent GEMM,
# is not); hardware event counters vary from run to run, for ncu too (reported, not judged:
# there is no second ncu run here to measure its spread).
EQUAL_PARTS = ("sass_thread_inst", "sass_inst_executed", "sass_l1tex_t_sectors", "ops_path_tensor",
               "sass_branch_targets", "smsp__inst_executed", "sass_data_bytes")
HARDWARE_PARTS = ("lsu_writeback_active", "lts2xbar_cycles_active", "wavefronts", "bank_conflicts")


def kind(metric):
    if metric.startswith("lts__t_"):
        return "rate"  # every L2 tag lookup: not a level of ours, reported only
    if any(p in metric for p in EQUAL_PARTS):
        return "count"  # the bytes the threads asked for (sass_data_bytes) too: SASS-counted
    if "bytes" in metric:
        return "bytes"
    if any(p in metric for p in HARDWARE_PARTS):
        return "hardware_event"
    return "rate"


def launch_shape(launch):
    """Our launch's key in shape()'s form: base name, grid and block as ncu prints them."""
    facts = launch.get("launch") or {}

    def dims(v):
        return "(" + ", ".join(str(x) for x in v) + ")" if v else ""
    return (base_name(launch["name"]), dims(facts.get("grid")), dims(facts.get("block")))


def ncu_range(rows, metric):
    """The smallest and largest value ncu gave `metric` over `rows`."""
    values = [v for v in (number(r.get(metric, "")) for r in rows) if v is not None]
    return (min(values), max(values)) if values else (None, None)


def main():
    args = sys.argv[1:]
    what = command = ""
    if "--what" in args:
        i = args.index("--what")
        what = args[i + 1]
        del args[i:i + 2]
    dram_path = None
    if "--dram" in args:
        i = args.index("--dram")
        dram_path = args[i + 1]
        del args[i:i + 2]
    if "--command" in args:
        i = args.index("--command")
        command = args[i + 1]
        del args[i:i + 2]
    run = json.load(open(args[0]))
    ncu = ncu_rows(args[1])
    ours = run["profile"]["launches"]
    by_shape = {}  # (base name, grid, block) -> ncu's launches of that shape, in order
    for r in ncu:
        by_shape.setdefault(shape(r), []).append(r)
    dram_by_shape = {}
    for r in ncu_rows(dram_path) if dram_path else []:
        dram_by_shape.setdefault(shape(r), []).append(r)
    seen = {}
    launches = []
    worst = {"count": 0.0, "bytes": 0.0}
    unequal_counts = 0
    varying_counts = 0
    bytes_over = 0
    for l in ours:
        name = l["name"]
        # ncu demangles differently (const placement, scopes, template arguments): launches are
        # matched in order within each kernel's base name and shape.
        key = launch_shape(l)
        if key not in by_shape:
            launches.append({"name": name, "matched": False})
            continue
        i = seen.get(key, 0)
        seen[key] = i + 1
        if i >= len(by_shape[key]):
            launches.append({"name": name, "matched": False})
            continue
        row = by_shape[key][i]
        dram_rows = dram_by_shape.get(key, [])
        dram_row = dram_rows[i] if i < len(dram_rows) else None
        diffs = {}
        for metric, ours_v in l["counters"].items():
            if metric.startswith("roofkit__") or metric not in row:
                continue
            theirs = number(row[metric])
            if theirs is None:
                continue
            multipass = None
            is_dram = metric.startswith("dram__bytes_")
            if is_dram and dram_path:
                multipass = theirs
                theirs = number(dram_row[metric]) if dram_row and metric in dram_row else None
                if theirs is None:
                    continue
            k = kind(metric)
            rel = abs(ours_v - theirs) / abs(theirs) if theirs else (0.0 if ours_v == 0 else 1.0)
            ok = None
            spread = None
            if k == "count":
                spread = ncu_range(by_shape[shape(row)], metric)
                if spread[0] != spread[1]:
                    k = "count_varies"
                    varying_counts += 1
                else:
                    ok = ours_v == theirs
                    unequal_counts += 0 if ok else 1
            elif k == "bytes":
                ok = rel <= 0.01 or (is_dram and abs(ours_v - theirs) <= 65536)
                bytes_over += 0 if ok else 1
            if k in worst:
                worst[k] = max(worst[k], rel)
            diffs[metric] = {"ours": ours_v, "ncu": theirs, "rel_diff": rel, "kind": k, "ok": ok}
            if k == "count_varies":
                diffs[metric]["ncu_range_same_shape"] = list(spread)
            if multipass is not None:
                diffs[metric]["ncu_multipass"] = multipass
        launches.append({"name": name, "matched": True, "ncu_id": row["ID"], "metrics": diffs})
    # Launches only ncu profiled (a primer: see tests/apps/torch_ops.py), with their DRAM bytes:
    # reported, not judged.
    ncu_only = []
    for key, rows in by_shape.items():
        dram_rows = dram_by_shape.get(key, [])
        for i, row in enumerate(rows[seen.get(key, 0):], start=seen.get(key, 0)):
            entry = {"name": row["Kernel Name"], "ncu_id": row["ID"]}
            for metric in ("dram__bytes_read.sum", "dram__bytes_write.sum"):
                if metric in row:
                    entry[metric] = {"ncu_multipass": number(row[metric])}
                    if i < len(dram_rows) and metric in dram_rows[i]:
                        entry[metric]["ncu"] = number(dram_rows[i][metric])
            ncu_only.append(entry)
    ncu_only.sort(key=lambda e: int(e["ncu_id"]) if e["ncu_id"].isdigit() else 0)
    matched = sum(1 for l in launches if l["matched"])
    out = {
        "schema": "roofkit.validation/1",
        "what": what or "roofline-cuda profile against ncu, launch by launch",
        "command": command,
        "device": run["context"].get("device", ""),
        "date": run["context"].get("date", ""),
        "git_revision": run["context"].get("git_revision", ""),
        "cache_control": run["context"].get("cache_control", ""),
        "rule": "SASS counts equal (those ncu itself gives differently for launches of one kernel and shape reported apart, as count_varies); level bytes within 1%; DRAM bytes within 1% or 64 KiB" +
                (" of ncu's one-pass DRAM collection (--dram)" if dram_path else "") +
                "; hardware event counters, L2 tag bytes, rates and times reported only",
        "launches_ours": len(ours),
        "launches_ncu": len(ncu),
        "launches_matched": matched,
        "counts_unequal": unequal_counts,
        "counts_varying_under_ncu": varying_counts,
        "bytes_over_1pct": bytes_over,
        "worst_rel_diff": worst,
        "verdict": "pass" if matched and unequal_counts == 0 and bytes_over == 0 else "fail",
        "launches": launches,
        "ncu_only": ncu_only,
    }
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""For open-rows.sh: open_rows_json.py DIR REV prints the evidence JSON from DIR's runs.

  - histogram_sizes: CUB's histogram kernel timed by ncu over 2^20 to 2^26 random keys, one wave
    of blocks at every size. A line through the median times splits a fixed cost (the intercept:
    starting the blocks, clearing and merging their shared histograms) from a cost per key (the
    slope), whose rate is the bandwidth the kernel streams its keys at with the same warps and
    the same loads in flight as at the application's 2^22 keys;
  - stall_sources: ncu's warp-stall samples per SASS instruction (its source page), summed by
    opcode and by class of instruction, for the histogram kernel and cuDNN's nchwToNhwcKernel.
    A warp is sampled at the next instruction it would issue: a store waiting for the LSU queue
    (lg_throttle) at the store itself, a warp waiting at a barrier or for its stores to drain
    after EXIT at the instruction after it. So "reasons" (ncu's sample counts by stall reason)
    carry the cost of stores (lg_throttle, drain), and by_class the samples at each kind of
    instruction."""
import csv
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import ncu_csv  # noqa: E402
import lab_json  # noqa: E402
from lab_json import record  # noqa: E402
from radix_causes_json import clocks, launches  # noqa: E402

KEY_BYTES = 4
APP_KEYS = 1 << 22
CLASSES = {"STG": "global_store", "LDG": "global_load", "RED": "global_atomic",
           "ATOMG": "global_atomic", "ATOM": "global_atomic", "ATOMS": "shared_atomic",
           "LDS": "shared_load", "STS": "shared_store", "BAR": "barrier", "EXIT": "exit"}


def fit_line(points):
    """Least squares ms = a + b * n over (n, ms)."""
    n = len(points)
    mx = sum(p[0] for p in points) / n
    my = sum(p[1] for p in points) / n
    b = sum((x - mx) * (y - my) for x, y in points) / sum((x - mx) ** 2 for x, _ in points)
    return my - b * mx, b


def histogram_sizes(d):
    prog = json.load(open(os.path.join(d, "sizes.json")))
    rows = launches(os.path.join(d, "sizes.csv"))
    if len(rows) != len(prog["sorts"]) or not prog["all_sorted"]:
        sys.exit(f"sizes: {len(rows)} histogram launches for {len(prog['sorts'])} sorts, "
                 f"all sorted: {prog['all_sorted']}")
    by_n = {}
    for s, k in zip(prog["sorts"], rows):
        by_n.setdefault(s["n"], []).append(k)
    out, points = [], []
    for n, ks in sorted(by_n.items()):
        ms = 1e-6 * statistics.median(k["gpu__time_duration.sum"] for k in ks)
        k = ks[0]
        points.append((n, ms))
        out.append({"keys": n, "launches": len(ks), "grid": int(k["launch__grid_size"]),
                    "block": int(k["launch__block_size"]),
                    "registers": int(k["launch__registers_per_thread"]),
                    "waves": round(k["launch__waves_per_multiprocessor"], 3),
                    "median_ms": round(ms, 5),
                    "dram_read_bytes_per_key": round(k["dram__bytes_read.sum"] / n, 3),
                    "achieved_occupancy_pct": round(
                        k["sm__warps_active.avg.pct_of_peak_sustained_active"], 1),
                    "global_loads_per_thread": round(
                        k["smsp__sass_inst_executed_op_global_ld.sum"] * 32
                        / (k["launch__grid_size"] * k["launch__block_size"]), 2),
                    "global_atomic_instructions": k["smsp__sass_inst_executed_op_global_red.sum"]
                    + k["smsp__sass_inst_executed_op_global_atom.sum"],
                    "dram_gb_per_s": round(k["dram__bytes_read.sum"] / (ms * 1e6), 1)})
    fixed_ms, ms_per_key = fit_line(points)
    for r in out:
        line = fixed_ms + ms_per_key * r["keys"]
        r["vs_line"] = round(r["median_ms"] / line, 4)
        r["fixed_share"] = round(fixed_ms / r["median_ms"], 4)
    return {"rows": out, "fixed_ms": round(fixed_ms, 5),
            "ns_per_key": round(1e6 * ms_per_key, 6),
            "streaming_gb_per_s": round(KEY_BYTES / (1e6 * ms_per_key), 1),
            "app_keys": APP_KEYS,
            "fixed_share_at_app_keys": next((r["fixed_share"] for r in out
                                             if r["keys"] == APP_KEYS), None)}


def source_table(path):
    """The source page's rows (SASS instruction, samples) from ncu's CSV export."""
    table = list(csv.reader(open(path, encoding="utf-8", errors="replace")))
    for i, row in enumerate(table):
        samples = [j for j, c in enumerate(row) if c.startswith("Warp Stall Sampling (All")]
        if "Source" in row and samples:
            src, col = row.index("Source"), samples[0]
            return [(r[src], ncu_csv.num(r[col] or 0)) for r in table[i + 1:]
                    if len(r) == len(row) and r[col].replace(",", "").replace(".", "").isdigit()]
    return None


def opcode(sass):
    words = sass.split()
    if words and words[0].startswith("@"):
        words = words[1:]
    return words[0].split(".")[0] if words else ""


def sampled_reasons(path):
    """ncu's raw warp-stall sample counts by reason (smsp__pcsamp_warps_issue_stalled_*)."""
    rows = ncu_csv.rows(path)
    if not rows:
        return {}
    prefix = "smsp__pcsamp_warps_issue_stalled_"
    out = {}
    for k, v in rows[0].items():
        if k.startswith(prefix) and not k.endswith("_not_issued"):
            try:
                out[k[len(prefix):]] = ncu_csv.num(v)
            except ValueError:
                pass
    total = sum(out.values())
    return {k: round(v / total, 4) for k, v in sorted(out.items(), key=lambda kv: -kv[1])
            if v > 0} if total else {}


def stall_sources(d, name, kernel):
    table = source_table(os.path.join(d, name + "-source.csv"))
    if not table:
        return {"kernel": kernel, "source_page": "no warp-stall samples in ncu's export"}
    total = sum(s for _, s in table)
    by_op, by_class = {}, {}
    for sass, s in table:
        op = opcode(sass)
        by_op[op] = by_op.get(op, 0) + s
        cls = CLASSES.get(op, "other")
        by_class[cls] = by_class.get(cls, 0) + s
    top = sorted(by_op.items(), key=lambda kv: -kv[1])[:12]
    return {"kernel": kernel, "instructions": len(table), "samples": total,
            "by_opcode": [{"opcode": op, "samples": s, "share": round(s / total, 4)}
                          for op, s in top],
            "by_class": {c: round(s / total, 4)
                         for c, s in sorted(by_class.items(), key=lambda kv: -kv[1])},
            "reasons": sampled_reasons(os.path.join(d, name + "-raw.csv"))}


def report(d, rev):
    return record(
        "the two rows of the diagnosis comparison still open: CUB's radix-sort histogram "
        "kernel timed over 2^20 to 2^26 keys at one wave (a fixed cost against a cost per key), "
        "and ncu's warp-stall samples per SASS instruction for it and for cuDNN's "
        "nchwToNhwcKernel in the training step (--cache-control all --clock-control none)",
        "REV=rev validation/lab/open-rows.sh", rev, clocks_mhz=clocks(d),
        histogram_sizes=histogram_sizes(d),
        stall_sources={"DeviceRadixSortHistogramKernel": stall_sources(
                           d, "hist", "DeviceRadixSortHistogramKernel"),
                       "nchwToNhwcKernel": stall_sources(d, "nchw", "nchwToNhwcKernel")})


if __name__ == "__main__":
    sys.exit(lab_json.main(sys.argv, report, __doc__))

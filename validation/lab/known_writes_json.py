#!/usr/bin/env python3
"""For known-writes.sh: known_writes_json.py DIR REV prints the evidence JSON from DIR (for each
mode M of plain, nccl, ddp, nccl-nocumem, plain-expandable: M-alone.out, the application's JSON
line of expected bytes; M-ours.json, our run; M-ncu1.csv, M-ncu2.csv, ncu's one-pass DRAM
exports): per launch, each run's DRAM read and write bytes beside the bytes the kernel moves,
and per mode, tool and kind of kernel, how far the counts lie from those bytes."""
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))
import ncu_csv  # noqa: E402
import lab_json  # noqa: E402

MODES = ("plain", "nccl", "ddp", "nccl-nocumem", "plain-expandable")
READ, WRITE = "dram__bytes_read.sum", "dram__bytes_write.sum"


def expected(path):
    """The application's launches with their expected bytes (its last JSON line)."""
    lines = [l for l in open(path) if l.startswith("{")]
    return json.loads(lines[-1])["launches"]


def ours(path):
    """Our profiled launches in order: (kernel, read bytes, write bytes)."""
    run = json.load(open(path))
    launches = run["multi_gpu"]["launches"] if "multi_gpu" in run else run["profile"]["launches"]
    return [(ncu_csv.base_name(l["name"]), l["counters"][READ], l["counters"][WRITE])
            for l in launches if l.get("counters")]


def ncu(path):
    """ncu's launches in order: (kernel, read bytes, write bytes)."""
    return [(ncu_csv.base_name(r["Kernel Name"]), ncu_csv.num(r[READ]), ncu_csv.num(r[WRITE]))
            for r in ncu_csv.rows(path)]


def gaps(plan, runs, kind, column):
    """Over the launches of `kind` (fill, scale, sum): each run's count less the expected bytes
    in `column` (1: read, 2: write), as median, least and most, and how many are dram_close()."""
    key = "read_bytes" if column == 1 else "write_bytes"
    rows = [(p[key], r[column]) for p, r in zip(plan, runs) if p["label"].startswith(kind)]
    d = [got - want for want, got in rows]
    return {"launches": len(d), "median_bytes": statistics.median(d), "least_bytes": min(d),
            "most_bytes": max(d), "close": sum(ncu_csv.dram_close(w, g) for w, g in rows)}


def mode_report(d, mode):
    """Per launch and per kind of kernel, each run against the expected bytes; else the error."""
    try:
        return compare_mode(d, mode)
    except (OSError, KeyError, ValueError, IndexError) as e:
        return {"error": f"{type(e).__name__}: {e}"}


def compare_mode(d, mode):
    """mode_report() of a mode whose files are all there."""
    plan = expected(os.path.join(d, f"{mode}-alone.out"))
    runs = {"ours": ours(os.path.join(d, f"{mode}-ours.json")),
            "ncu1": ncu(os.path.join(d, f"{mode}-ncu1.csv")),
            "ncu2": ncu(os.path.join(d, f"{mode}-ncu2.csv"))}
    counts = {k: len(v) for k, v in runs.items()}
    if any(n != len(plan) for n in counts.values()):
        return {"error": f"{len(plan)} launches planned, profiled: {counts}"}
    summary = {tool: {f"{kind} {what}": gaps(plan, r, kind, col)
                      for kind in ("fill", "scale", "sum")
                      for what, col in (("read", 1), ("write", 2))}
               for tool, r in runs.items()}
    per_launch = [dict(label=p["label"], kernel=runs["ours"][i][0], read=p["read_bytes"],
                       write=p["write_bytes"],
                       **{tool: [r[i][1], r[i][2]] for tool, r in runs.items()})
                  for i, p in enumerate(plan)]
    return {"launches": len(plan), "gap_from_expected": summary, "per_launch": per_launch}


def report(d, rev):
    return lab_json.record(
        "kernels whose DRAM bytes are known (fills, a scaled copy, sums of 8, 64 and 256 MiB, "
        "three launches each), in a plain process, beside a one-rank NCCL process group and "
        "beside a DDP-wrapped model, the NCCL group with NCCL_CUMEM_ENABLE=0 and the plain "
        "process with PyTorch's expandable segments: our counts and ncu's two one-pass runs "
        "against the bytes each kernel moves ([read, write] per launch)",
        "OUT=dir REV=rev validation/lab/known-writes.sh BUILD", rev,
        **{mode: mode_report(d, mode) for mode in MODES})


if __name__ == "__main__":
    sys.exit(lab_json.main(sys.argv, report, __doc__))

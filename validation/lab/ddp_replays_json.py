#!/usr/bin/env python3
"""For ddp-replays.sh: ddp_replays_json.py RUNS_DIR REV prints the evidence JSON.

  - waits: per setting (quiet: nothing replayed; every: every compute launch replayed), the
    job's wall time and, per rank from the merged run, the time in collectives, the part of it
    waiting for the last rank (collective_wait_s: beyond the fastest rank's copy of each
    collective), how often it came last, and (every) the time its NCCL calls waited on the host
    for a peer's replay; the fastest copies' total is the collectives' own work;
  - nop2p_dram: with NCCL_P2P_DISABLE=1, each rank's DRAM bytes against ncu's first one-pass run
    and ncu's second run against its first (profile-compare.py --dram, ncu_csv.dram_agreement),
    split per GPU."""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..", "scripts")
sys.path.insert(0, SCRIPTS)
import ncu_csv  # noqa: E402
import lab_json  # noqa: E402
from lab_json import record  # noqa: E402


def text(d, name, default=""):
    try:
        return open(os.path.join(d, name), encoding="utf-8", errors="replace").read()
    except OSError:
        return default


def run_of(d, name):
    return {"rc": int(text(d, name + ".rc", "-1")), "wall_s": float(text(d, name + ".s", "0"))}


def waits(d, name):
    out = run_of(d, name)
    try:
        merged = json.load(open(os.path.join(d, name + "-merged.json")))["multi_gpu"]
    except (OSError, KeyError, ValueError) as e:
        return {**out, "error": f"no merged run: {e}"}
    out["collectives_matched_across_ranks"] = merged.get("collectives_matched_across_ranks")
    out["collective_fastest_time_s"] = merged.get("collective_fastest_time_s")
    out["ranks"] = []
    for r in merged.get("ranks", []):
        row = {k: r.get(k) for k in ("rank", "profiled_launches", "compute_time_s",
                                     "collective_time_s", "collective_wait_s",
                                     "collectives_last_to_arrive", "collective_launches")}
        try:
            own = json.load(open(os.path.join(d, f"{name}.rank{r['rank']}.json")))
            row["nccl_calls_waiting_for_peer_replays_s"] = own.get("multi_gpu", {}).get(
                "nccl_calls_waiting_for_peer_replays_s")
        except (OSError, ValueError):
            pass
        out["ranks"].append(row)
    return out


def nop2p_dram(d):
    first = ncu_csv.split_by_gpu(text(d, "nop2p_ncu1.out"), os.path.join(d, "nop2p-ncu1"))
    second = ncu_csv.split_by_gpu(text(d, "nop2p_ncu2.out"), os.path.join(d, "nop2p-ncu2"))
    out = {"ncu_runs": [run_of(d, "nop2p_ncu1"), run_of(d, "nop2p_ncu2")], "ranks": []}
    for rank, (path, which) in sorted(first.items()):
        res = subprocess.run([sys.executable, os.path.join(SCRIPTS, "profile-compare.py"),
                              os.path.join(d, f"nop2p.rank{rank}.json"), path, "--dram", path],
                             capture_output=True, text=True)
        row = {"rank": rank, "ncu_rows": which}
        if res.returncode == 0 and res.stdout.strip():
            compare = json.loads(res.stdout)
            row["ours_vs_ncu_one_pass"] = ncu_csv.ours_dram_agreement(compare)
            row["counts_unequal"] = compare.get("counts_unequal")
            writes = [l["metrics"]["dram__bytes_write.sum"] for l in compare.get("launches", [])
                      if "dram__bytes_write.sum" in l.get("metrics", {})]
            lower = sorted(w["ncu"] - w["ours"] for w in writes if w["ours"] < w["ncu"])
            row["ours_writes_lower"] = {"launches": len(lower), "of": len(writes),
                                        "median_bytes": lower[len(lower) // 2] if lower else 0}
        else:
            row["error"] = res.stderr[-1000:]
        if rank in second:
            row["ncu_second_vs_first"] = ncu_csv.dram_agreement(path, second[rank][0])
        out["ranks"].append(row)
    return out


def report(d, rev):
    gpus = lab_json.gpus()
    return record(
        "a DDP step's collectives with nothing replayed and with every compute launch replayed "
        "(per rank: time in collectives, waiting for the last rank, waiting for a peer's "
        "replay), and its compute kernels' DRAM bytes against ncu's one-pass values with "
        "NCCL's peer-to-peer path off",
        "OUT=dir REV=rev validation/lab/ddp-replays.sh BUILD", rev,
        device=f"{gpus[0] if gpus else ''} x{len(gpus)}", alone=run_of(d, "alone"),
        waits={"quiet": waits(d, "quiet"), "every": waits(d, "every")},
        nop2p_dram=nop2p_dram(d))


if __name__ == "__main__":
    sys.exit(lab_json.main(sys.argv, report, __doc__))

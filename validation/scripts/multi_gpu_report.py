#!/usr/bin/env python3
"""The evidence files of validation/scripts/multi-gpu.sh, from the folder of its runs.

Usage: multi_gpu_report.py RUNS_DIR OUT_DIR (DEVICE and REVISION from the environment)

Writes OUT_DIR/multi-gpu-ddp.json (wall times alone / under profile / under ncu, both ranks'
outcome, collectives placed against the measured all-reduce roof and the NVLink figure, losses
alone and profiled), multi-gpu-ddp-vs-ncu-rank<R>.json (profile-compare.py of each rank's run
against ncu's rows of that rank's GPU, with ncu's one-pass DRAM values: how many launches ours
and ncu's second run agree with its first on) and multi-gpu-mpi.json."""
import json
import os
import statistics
import subprocess
import sys
import time

import ncu_csv
from app_lines import json_lines

runs, out = sys.argv[1], sys.argv[2]
here = os.path.dirname(os.path.abspath(__file__))


def read(name, default=None):
    try:
        return open(os.path.join(runs, name), encoding="utf-8", errors="replace").read()
    except OSError:
        return default


def load(name):
    text = read(name)
    try:
        return json.loads(text) if text else None
    except ValueError:
        return None


def wall(name):
    s, rc = read(name + ".s"), read(name + ".rc")
    return {"wall_s": float(s) if s else None, "rc": int(rc) if rc else None}


def stamp(claim, commands):
    return {"claim": claim, "commands": commands, "device": os.environ.get("DEVICE", ""),
            "git_revision": os.environ.get("REVISION", ""),
            "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}


def collectives_of(merged, roof_busbw, nvlink):
    """Per rank: the collective launches, their time, bytes and bus bandwidth against the roofs."""
    by_rank = {}
    for c in (merged or {}).get("multi_gpu", {}).get("collectives", []):
        by_rank.setdefault(c.get("rank"), []).append(c)
    rows = []
    for rank, cs in sorted(by_rank.items(), key=lambda kv: kv[0]):
        bw = [c["busbw_bytes_per_s"] for c in cs if c.get("busbw_bytes_per_s", 0) > 0]
        big = max(cs, key=lambda c: c.get("bytes", 0))
        rows.append({
            "rank": rank, "launches": len(cs), "matched_to_nccl_calls": sum(c.get("calls", 0) > 0 for c in cs),
            "time_s": sum(c.get("time_s", 0) for c in cs),
            "bytes": sum(c.get("bytes", 0) for c in cs),
            "median_busbw_bytes_per_s": statistics.median(bw) if bw else None,
            "largest": big,
            "largest_pct_of_measured_all_reduce_roof":
                100 * big.get("busbw_bytes_per_s", 0) / roof_busbw if roof_busbw else None,
            "largest_pct_of_nvlink": 100 * big.get("busbw_bytes_per_s", 0) / nvlink if nvlink else None,
        })
    return rows


def split_ncu(csv_path, prefix="ddp-ncu"):
    """ncu's raw-page rows per GPU as RUNS_DIR/<prefix>-rank<R>.csv (ncu_csv.split_by_gpu)."""
    return ncu_csv.split_by_gpu(read(csv_path, ""), os.path.join(runs, prefix))


def weights_account(plain, plain2, profiled):
    """Where the weights after the last step part between runs: per parameter, the difference of
    the sums, and the same over that step's update (lr x gradient sum): 1 would be an update
    applied twice, -1 one not applied."""
    def runs_equal(a, b):
        return bool(a) and [l.get("param_sums") for l in a] == [l.get("param_sums") for l in b]
    out = {"alone_runs_equal": runs_equal(plain, plain2),
           "profiled_equal_to_alone": runs_equal(plain, profiled), "parameters": []}
    if not plain or not profiled or "param_sums" not in plain[0]:
        return out
    a, p = plain[0], profiled[0]
    for i, (wa, wp) in enumerate(zip(a["param_sums"], p["param_sums"])):
        if wa == wp:
            continue
        update = a["lr"] * a["grad_sums"][i]
        out["parameters"].append({"index": i, "alone": wa, "profiled": wp,
                                  "difference": wp - wa, "alone_again": plain2[0]["param_sums"][i]
                                  if plain2 else None,
                                  "grad_sum_alone": a["grad_sums"][i],
                                  "grad_sum_profiled": p["grad_sums"][i],
                                  "difference_over_update": (wa - wp) / update if update else None})
    return out


interconnect = load("interconnect.json") or {}
sweep = interconnect.get("all_reduce", [])
roof = max((p["busbw_bytes_per_s"] for p in sweep), default=None)
nvlink = (interconnect.get("theoretical_nvlink") or {}).get("per_direction_bytes_per_s")
merged = load("ddp.json")
mg = (merged or {}).get("multi_gpu", {})
plain_lines = json_lines(read("ddp_plain.out"))
plain2_lines = json_lines(read("ddp_plain2.out"))
profiled_lines = json_lines(read("ddp_profile.out"))
ddp = stamp("A DDP step of our own under torchrun --nproc_per_node 2: both ranks profiled and "
            "merged, collectives timed and placed by bus bandwidth against the measured "
            "all-reduce roof; wall time alone, under profile and under ncu",
            ["torchrun --standalone --nproc_per_node 2 validation/apps/ddp_train.py --steps 4",
             "roofline-cuda profile --profile-from-start off -o ddp.json -- <the same>",
             "ncu --target-processes all --profile-from-start off --kernel-name regex:^(?!nccl) "
             "--metrics <our counter names> --cache-control all --clock-control none <the same>",
             "the same ncu line with --metrics dram__bytes_read.sum,dram__bytes_write.sum, twice"])
ddp["wall"] = {"alone": wall("ddp_plain"), "profile": wall("ddp_profile"), "ncu": wall("ddp_ncu"),
               "roofs_first_run": wall("roofs_first")}
w = ddp["wall"]
if w["alone"]["wall_s"] and w["profile"]["wall_s"]:
    ddp["wall"]["profile_over_alone"] = w["profile"]["wall_s"] / w["alone"]["wall_s"]
if w["ncu"]["wall_s"] and w["profile"]["wall_s"]:
    ddp["wall"]["profile_over_ncu"] = w["profile"]["wall_s"] / w["ncu"]["wall_s"]
ddp["ranks"] = mg.get("ranks")
ddp["load_imbalance"] = mg.get("load_imbalance")
ddp["kernels_across_ranks"] = (mg.get("kernels") or [])[:15]
ddp["interconnect_roof"] = {"measured_all_reduce_busbw_bytes_per_s": roof,
                            "nvlink_per_direction_bytes_per_s": nvlink}
ddp["collectives"] = collectives_of(merged, roof, nvlink)
ddp["profiled_launches"] = mg.get("ranks") and sum(r.get("profiled_launches", 0) for r in mg["ranks"])
ddp["losses"] = {"alone": [l.get("losses") for l in plain_lines],
                 "profiled": [l.get("losses") for l in profiled_lines],
                 "equal": bool(plain_lines) and [l.get("losses") for l in plain_lines] ==
                 [l.get("losses") for l in profiled_lines]}
# The profiled step's backward, all-reduce and optimizer show in the weights after it.
ddp["weights_checksum"] = {"alone": [l.get("weights_checksum") for l in plain_lines],
                           "profiled": [l.get("weights_checksum") for l in profiled_lines]}
ddp["weights_checksum"]["equal"] = bool(plain_lines) and \
    ddp["weights_checksum"]["alone"] == ddp["weights_checksum"]["profiled"]
ddp["weights_checksum"]["alone_again"] = [l.get("weights_checksum") for l in plain2_lines]
ddp["weights_by_parameter"] = weights_account(plain_lines, plain2_lines, profiled_lines)
ddp["step_s"] = {"alone": [l.get("step_s") for l in plain_lines],
                 "profiled": [l.get("step_s") for l in profiled_lines]}
json.dump(ddp, open(os.path.join(out, "multi-gpu-ddp.json"), "w"), indent=2)

dram1, dram2 = split_ncu("ddp-ncu-dram1.csv", "ddp-ncu-dram1"), \
    split_ncu("ddp-ncu-dram2.csv", "ddp-ncu-dram2")
for rank, (path, which) in split_ncu("ddp-ncu.csv").items():
    run = os.path.join(runs, f"ddp.rank{rank}.json")
    dram = ["--dram", dram1[rank][0]] if rank in dram1 else []
    res = subprocess.run([sys.executable, os.path.join(here, "profile-compare.py"), run, path,
                          *dram, "--what", f"rank {rank} of the DDP step ({which} of ncu's export)",
                          "--command", "validation/scripts/multi-gpu.sh"],
                         capture_output=True, text=True)
    target = os.path.join(out, f"multi-gpu-ddp-vs-ncu-rank{rank}.json")
    if res.returncode == 0 and res.stdout.strip():
        compare = json.loads(res.stdout)
        if rank in dram1 and rank in dram2:  # ours and ncu's second run, against its first
            compare["dram_agreement"] = {
                "ours_vs_ncu_one_pass": ncu_csv.ours_dram_agreement(compare),
                "ncu_second_vs_first": ncu_csv.dram_agreement(dram1[rank][0], dram2[rank][0])}
        json.dump(compare, open(target, "w"), indent=1)
    else:
        json.dump({"error": res.stderr[-2000:]}, open(target, "w"), indent=2)

mpi_merged = load("mpi.json")
plain, prof = json_lines(read("mpi_plain.out")), json_lines(read("mpi_profile.out"))
mpi = stamp("An MPI program of our own (two ranks, CUDA kernels, staged exchange) under "
            "mpirun, profiled rank by rank and merged",
            ["mpirun --allow-run-as-root --oversubscribe -np 2 mpi_ring",
             "roofline-cuda profile -o mpi.json -- <the same>"])
mpi["wall"] = {"alone": wall("mpi_plain"), "profile": wall("mpi_profile")}
mpi["ranks"] = (mpi_merged or {}).get("multi_gpu", {}).get("ranks")
mpi["kernels_across_ranks"] = (mpi_merged or {}).get("multi_gpu", {}).get("kernels")
mpi["checksums"] = {"alone": [l.get("checksum") for l in plain],
                    "profiled": [l.get("checksum") for l in prof]}
mpi["checksums"]["equal"] = bool(plain) and mpi["checksums"]["alone"] == mpi["checksums"]["profiled"]
json.dump(mpi, open(os.path.join(out, "multi-gpu-mpi.json"), "w"), indent=2)
print(json.dumps({"ddp_wall": ddp["wall"], "losses_equal": ddp["losses"]["equal"],
                  "weights_equal": ddp["weights_checksum"]["equal"],
                  "weights_by_parameter": ddp["weights_by_parameter"],
                  "mpi_checksums_equal": mpi["checksums"]["equal"]}, indent=2))

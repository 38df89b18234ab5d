#!/usr/bin/env python3
"""For nvlink-traffic.sh: nvlink_traffic_json.py DIR REV prints the evidence JSON from DIR/runs
(ddp.json, nop2p.json, mpi.json: merged runs, with their rank files beside them;
peer_copy_test.out: the GPU test's log): per run and rank, the NVLink bytes its GPU sent and
received, its collectives' bus bytes by operation, and sent over bus bytes."""
import collections
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lab_json  # noqa: E402


def rank_rows(merged_path):
    """Per rank of the merged run at `merged_path`: its rank file's nvlink object and its
    collectives' bus bytes by operation."""
    if not os.path.exists(merged_path):
        return {"missing": os.path.basename(merged_path)}
    merged = json.load(open(merged_path))
    out = []
    for row in merged["multi_gpu"]["ranks"]:
        path = os.path.join(os.path.dirname(merged_path), os.path.basename(row["file"]))
        mg = json.load(open(path))["multi_gpu"] if os.path.exists(path) else {}
        by_op = collections.Counter()
        for c in mg.get("collectives", []):
            by_op[c["op"]] += c.get("bus_bytes", 0)
        out.append({"rank": row["rank"], "status": row["status"],
                    "collective_launches": row["collective_launches"],
                    "nvlink": mg.get("nvlink"), "bus_bytes_by_op": dict(by_op)})
    return out


def peer_copy(log):
    """The GPU test's result and the bytes it printed."""
    text = open(log, errors="replace").read() if os.path.exists(log) else ""
    m = re.search(r"(\S+): GPU 0 sent (\d+) bytes, GPU 1 received (\d+), for a copy of (\d+)",
                  text)
    return {"passed": "[  PASSED  ] " in text and "FAILED" not in text,
            "counter": m.group(1) if m else None,
            "sent": int(m.group(2)) if m else None, "received": int(m.group(3)) if m else None,
            "copy_bytes": int(m.group(4)) if m else None}


def report(d, rev):
    r = os.path.join(d, "runs")
    return lab_json.record(
        "each rank's NVLink traffic under profile (NVML's counters of its GPU, first launch to "
        "exit) beside its collectives' bus bytes: the DDP step, the same with NCCL_P2P_DISABLE=1, "
        "an MPI ring staged through host memory; and a peer copy of known size",
        "OUT=dir REV=rev validation/lab/nvlink-traffic.sh BUILD", rev,
        device="; ".join(lab_json.gpus()),
        ddp=rank_rows(os.path.join(r, "ddp.json")),
        nccl_p2p_disabled=rank_rows(os.path.join(r, "nop2p.json")),
        mpi_ring_host_staged=rank_rows(os.path.join(r, "mpi.json")),
        peer_copy=peer_copy(os.path.join(r, "peer_copy_test.out")))


if __name__ == "__main__":
    sys.exit(lab_json.main(sys.argv, report, __doc__))

#!/usr/bin/env python3
"""The summary of validation/lab/ddp-weights.sh: per run, each rank's weights checksum and the
parameters whose weight or gradient sum differs from the first run alone of as many ranks; for a
profiled run, each rank's profiled launches, those left unprofiled while a peer's collective was
in flight, and the time its NCCL calls waited for a peer's replay (the peer table).

Usage: ddp_weights_json.py RUNS_DIR > ddp-weights.json (DEVICE and REVISION from the
environment)"""
import glob
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
from app_lines import json_lines  # noqa: E402

runs = sys.argv[1]
ORDER = ["alone", "alone_again", "profile", "profile_again", "profile_batch1",
         "profile_no_recorder", "alone_blocking", "profile_blocking", "one_rank_alone",
         "one_rank_profile", "no_p2p_alone", "no_p2p_profile", "no_p2p_profile_again"]


def lines(name):
    try:
        text = open(os.path.join(runs, name + ".out"), errors="replace").read()
    except OSError:
        return []
    return json_lines(text, "param_sums")


# The -o file of each profiled setting in ddp-weights.sh.
STEMS = {"profile": "profile", "profile_again": "profile_again", "profile_batch1": "profile_batch1",
         "profile_no_recorder": "profile_nr", "profile_blocking": "profile_bl",
         "one_rank_profile": "one_rank", "no_p2p_profile": "profile_np",
         "no_p2p_profile_again": "profile_np2"}
PEER_REASON = "a peer rank's collective in flight"


def rank_stats(name):
    """Per rank of a profiled run: launches, profiled, left out for a peer, NCCL calls' wait."""
    out = []
    for path in sorted(glob.glob(os.path.join(runs, STEMS.get(name, "-") + ".rank*.json"))):
        run = json.load(open(path))
        p, mg = run.get("profile", {}), run.get("multi_gpu", {})
        out.append({"rank": mg.get("rank"), "launches": p.get("total_launches"),
                    "profiled": p.get("profiled_launches"),
                    "left_out_for_a_peer": sum(n.get("launches", 0)
                                               for n in p.get("not_profiled", [])
                                               if PEER_REASON in n.get("reason", "")),
                    "nccl_calls": mg.get("nccl_calls"),
                    "nccl_wait_for_peer_replays_s": mg.get("nccl_calls_waiting_for_peer_replays_s")})
    return out


def differing(base, other):
    """Parameters (index) whose weight or gradient sum differs, on rank 0."""
    if not base or not other:
        return None
    a, b = base[0], other[0]
    out = []
    for i, (wa, wb) in enumerate(zip(a["param_sums"], b["param_sums"])):
        ga, gb = a["grad_sums"][i], b["grad_sums"][i]
        if wa != wb or ga != gb:
            out.append({"index": i, "grad_sum": [ga, gb], "weight_difference": wb - wa})
    return out


result = {"claim": "Where the DDP step's weights part under roofline-cuda profile: weights and "
                   "gradient sums after the last step, alone and under profile, one setting "
                   "changed at a time",
          "command": "OUT=dir validation/lab/ddp-weights.sh BUILD",
          "device": os.environ.get("DEVICE", ""), "git_revision": os.environ.get("REVISION", ""),
          "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "runs": {}}
two, one, no_p2p = lines("alone"), lines("one_rank_alone"), lines("no_p2p_alone")
for name in ORDER:
    rc_file = os.path.join(runs, name + ".rc")
    if not os.path.exists(rc_file):  # a setting RUNS left out
        continue
    got = lines(name)
    rc = open(rc_file).read().strip()
    base = one if name.startswith("one_rank") else no_p2p if name.startswith("no_p2p") else two
    diff = differing(base, got)
    result["runs"][name] = {"rc": rc, "weights_checksum": [l["weights_checksum"] for l in got],
                            "equal_to_alone": diff == [] if diff is not None else None,
                            "parameters_differing": diff}
    if name in STEMS:
        result["runs"][name]["ranks"] = rank_stats(name)
json.dump(result, sys.stdout, indent=1)
print()

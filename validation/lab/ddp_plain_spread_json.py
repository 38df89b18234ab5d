#!/usr/bin/env python3
"""For ddp-plain-spread.sh: ddp_plain_spread_json.py DIR REV prints the evidence JSON from DIR
(ours1.json, ours2.json, ours_pad.json: our runs; ncu1.csv, ncu2.csv, ncu_pad.csv: ncu's one-pass
DRAM exports): launches whose DRAM read and write bytes agree within 1% or 64 KiB, for each
pair: a tool against itself, against itself with the buffers moved, and against the other."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))
sys.path.insert(0, HERE)
import ncu_csv  # noqa: E402
import lab_json  # noqa: E402
from ddp_one_rank_json import compare_files  # noqa: E402
from dram_repeat_json import ours_against_ours  # noqa: E402

def ours_agreement(d, first, second):
    """Our runs `first` and `second` launch by launch (dram_repeat_json's rule): matched, agree."""
    both = ours_against_ours(d, first, second)
    return {"matched": both["matched"], "agree": both["agree"]}


def ours_vs_ncu(d, ours, ncu):
    return compare_files(os.path.join(d, ours), os.path.join(d, ncu))["ours_vs_ncu_one_pass"]


def report(d, rev):
    f = lambda name: os.path.join(d, name)  # noqa: E731
    return lab_json.record(
        "the DDP step's model in a plain process (one GPU): DRAM bytes of one tool's two runs, "
        "of a run with the buffers moved (256 MiB taken first), and of the two tools, launch by "
        "launch (within 1% or 64 KiB)",
        lab_json.with_profile_args("OUT=dir REV=rev validation/lab/ddp-plain-spread.sh BUILD"),
        rev,
        ours_second_vs_first=ours_agreement(d, "ours1", "ours2"),
        ncu_second_vs_first=ncu_csv.dram_agreement(f("ncu1.csv"), f("ncu2.csv")),
        ours_moved_vs_first=ours_agreement(d, "ours1", "ours_pad"),
        ncu_moved_vs_first=ncu_csv.dram_agreement(f("ncu1.csv"), f("ncu_pad.csv")),
        ours_first_vs_ncu_first=ours_vs_ncu(d, "ours1.json", "ncu1.csv"),
        ours_second_vs_ncu_second=ours_vs_ncu(d, "ours2.json", "ncu2.csv"),
        ours_moved_vs_ncu_moved=ours_vs_ncu(d, "ours_pad.json", "ncu_pad.csv"))


if __name__ == "__main__":
    sys.exit(lab_json.main(sys.argv, report, __doc__))

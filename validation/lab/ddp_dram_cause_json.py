#!/usr/bin/env python3
"""For ddp-dram-cause.sh: ddp_dram_cause_json.py DIR REV prints the evidence JSON from DIR
(ddp.json, plain.json: our runs of the DDP step with one rank and of the same model in a plain
process; ncu_ddp.csv and its log ncu_ddp.log, ncu_ddp_app.csv (application replay),
ncu_plain1.csv, ncu_plain2.csv: ncu's one-pass DRAM exports): each of ours against ncu's
kernel replay, ncu's application replay and its plain runs against its kernel replay of the
DDP step, our DDP run against ncu's plain runs, and the passes ncu's log gives per launch."""
import collections
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))
sys.path.insert(0, HERE)
import ncu_csv  # noqa: E402
import lab_json  # noqa: E402
from ddp_one_rank_json import compare_files  # noqa: E402


def passes(log):
    """How many launches ncu's log shows with each pass count ("- 1 pass", "- 2 passes")."""
    found = re.findall(r"- (\d+) pass(?:es)?\b", open(log, errors="replace").read())
    return dict(sorted(collections.Counter(int(n) for n in found).items()))


def brief(result):
    """compare_files() without the per-launch list: the agreements and the median gap."""
    return {k: v for k, v in result.items() if k != "writes"}


def report(d, rev):
    f = lambda name: os.path.join(d, name)  # noqa: E731
    ddp = compare_files(f("ddp.json"), f("ncu_ddp.csv"))
    plain = compare_files(f("plain.json"), f("ncu_plain1.csv"), f("ncu_plain2.csv"))
    return lab_json.record(
        "the DDP step's compute kernels (one rank, one GPU) and the same model and data in a "
        "plain process without NCCL: our DRAM bytes against ncu's one-pass kernel replay, ncu's "
        "application replay and plain runs against its kernel replay of the DDP step",
        "OUT=dir REV=rev validation/lab/ddp-dram-cause.sh BUILD", rev,
        ncu_passes_per_launch_ddp=passes(f("ncu_ddp.log")),
        ddp=brief(ddp),
        ddp_ours_vs_ncu_application_replay=brief(
            compare_files(f("ddp.json"), f("ncu_ddp_app.csv"))),
        ddp_ncu_application_vs_kernel_replay=ncu_csv.dram_agreement(f("ncu_ddp.csv"),
                                                                   f("ncu_ddp_app.csv")),
        plain=brief(plain),
        ncu_plain_vs_ncu_ddp=ncu_csv.dram_agreement(f("ncu_ddp.csv"), f("ncu_plain1.csv")),
        ddp_ours_vs_ncu_plain=[brief(compare_files(f("ddp.json"), f(n)))
                               for n in ("ncu_plain1.csv", "ncu_plain2.csv")],
        ddp_writes=ddp["writes"], plain_writes=plain["writes"])


if __name__ == "__main__":
    sys.exit(lab_json.main(sys.argv, report, __doc__))

#!/usr/bin/env python3
"""For ddp-plain-spread.sh's work directory: dram_direction_json.py DIR REV prints whether the two
tools' DRAM write bytes differ in one direction, launch by launch, beyond each tool's own spread.
DIR holds ours1.json, ours2.json (roofline-cuda profile runs) and ncu1.csv, ncu2.csv (ncu's
one-pass DRAM exports) of the same launches in the same order. The first launch is left out
(ncu's first launch of a process carries some 2.3 MB of its own: ncu-dram-passes-h200.json).
Per launch: ncu's mean minus ours; beside it, each tool's second run minus its first. A sign
test (two-sided, exact binomial) says how likely as many positive differences would be if the
direction were a coin toss."""
import json
import math
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))
import ncu_csv  # noqa: E402
import lab_json  # noqa: E402

WRITE = "dram__bytes_write.sum"


def ncu_writes(path):
    return [ncu_csv.num(r[WRITE]) for r in ncu_csv.rows(path) if r.get("ID", "").isdigit()]


def our_writes(path):
    return [l["counters"][WRITE] for l in json.load(open(path))["profile"]["launches"]]


def sign_test(positive, n):
    """Two-sided exact binomial p-value of `positive` successes in `n` at one half."""
    k = max(positive, n - positive)
    tail = sum(math.comb(n, i) for i in range(k, n + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def direction(diffs):
    positive = sum(d > 0 for d in diffs)
    return {"launches": len(diffs), "mean_bytes": round(statistics.mean(diffs)),
            "median_bytes": round(statistics.median(diffs)), "positive": positive,
            "sign_test_p": round(sign_test(positive, len(diffs)), 4)}


def report(d, rev):
    n1, n2 = ncu_writes(os.path.join(d, "ncu1.csv")), ncu_writes(os.path.join(d, "ncu2.csv"))
    o1, o2 = our_writes(os.path.join(d, "ours1.json")), our_writes(os.path.join(d, "ours2.json"))
    n = min(map(len, (n1, n2, o1, o2)))
    rest = range(1, n)
    return lab_json.record(
        "DRAM write bytes of the DDP step's model in a plain process, two runs of each tool: "
        "ncu's mean minus ours launch by launch (the first launch left out), beside each tool's "
        "second run minus its first, with a sign test of the direction",
        "validation/lab/dram_direction_json.py DIR REV on the work directory of "
        "OUT=dir REV=rev validation/lab/ddp-plain-spread.sh BUILD", rev,
        ncu_minus_ours=direction([(n1[i] + n2[i] - o1[i] - o2[i]) / 2 for i in rest]),
        ncu_second_minus_first=direction([n2[i] - n1[i] for i in rest]),
        ours_second_minus_first=direction([o2[i] - o1[i] for i in rest]),
        first_launch={"ncu": [n1[0], n2[0]], "ours": [o1[0], o2[0]]})


if __name__ == "__main__":
    sys.exit(lab_json.main(sys.argv, report, __doc__))

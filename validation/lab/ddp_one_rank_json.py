#!/usr/bin/env python3
"""For ddp-one-rank-dram.sh: ddp_one_rank_json.py DIR REV prints the evidence JSON from DIR
(one.json: the merged run of the one-rank job, its launches under multi_gpu.launches; ncu1.csv,
ncu2.csv: ncu's one-pass DRAM exports): our DRAM bytes against ncu's first run
(profile-compare.py --dram), ncu's second against its first, and per launch that writes, ncu's
writes less ours."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..", "scripts")
sys.path.insert(0, SCRIPTS)
import ncu_csv  # noqa: E402
import lab_json  # noqa: E402
from lab_json import record  # noqa: E402


def compare_files(ours_path, first, second=None):
    """Our run at `ours_path` (one process's, or a merged run's launches under multi_gpu) against
    ncu's one-pass export `first`; `second` against `first` when given; and per launch that
    writes, ncu's writes less ours."""
    run = json.load(open(ours_path))
    launches = run["multi_gpu"]["launches"] if "multi_gpu" in run else run["profile"]["launches"]
    ours = [l for l in launches if l.get("counters")]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump({"context": run.get("context", {}), "profile": {"launches": ours}}, f)
    out = json.loads(subprocess.run(
        [sys.executable, os.path.join(SCRIPTS, "profile-compare.py"), f.name, first, "--dram",
         first], check=True, capture_output=True, text=True).stdout)
    os.unlink(f.name)
    gaps = []
    for l in out.get("launches", []):
        w = l.get("metrics", {}).get("dram__bytes_write.sum")
        if w and max(w["ours"], w["ncu"]) > 0:
            gaps.append({"kernel": ncu_csv.base_name(l["name"]), "ours": w["ours"],
                         "ncu": w["ncu"], "ncu_less_ours": w["ncu"] - w["ours"]})
    lower = sorted(g["ncu_less_ours"] for g in gaps if g["ncu_less_ours"] > 0)
    result = {"launches_matched": out.get("launches_matched"),
              "counts_unequal": out.get("counts_unequal"),
              "ours_vs_ncu_one_pass": ncu_csv.ours_dram_agreement(out)}
    if second:
        result["ncu_second_vs_first"] = ncu_csv.dram_agreement(first, second)
    result["ours_writes_lower"] = {"launches": len(lower), "of": len(gaps),
                                   "median_bytes": lower[len(lower) // 2] if lower else 0}
    result["writes"] = gaps
    return result


def compare(d):
    return compare_files(os.path.join(d, "one.json"), os.path.join(d, "ncu1.csv"),
                         os.path.join(d, "ncu2.csv"))


def report(d, rev):
    return record(
        "the DDP step with one rank on one GPU (torchrun --nproc_per_node 1): our DRAM bytes "
        "against ncu's one-pass values, and ncu's second run against its first; per launch, "
        "ncu's writes less ours",
        "OUT=dir REV=rev validation/lab/ddp-one-rank-dram.sh BUILD", rev, **compare(d))


if __name__ == "__main__":
    sys.exit(lab_json.main(sys.argv, report, __doc__))

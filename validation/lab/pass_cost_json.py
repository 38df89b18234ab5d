"""Builds validation/data/profile-pass-cost-h100.json from the outputs of validation/lab/pass-cost.sh
and validation/lab/set-cost.sh (one folder per device call, in the order given on the command line):
per-launch cost of every roofkit-profiler-cost line, and the dense tensor check (ncu's family,
_sparsity_off and _sparsity_on counters beside roofline-cuda profile's values).
Usage: python3 validation/lab/pass_cost_json.py OUT.json LABEL=DIR [LABEL=DIR ...]"""
import csv
import io
import json
import os
import sys


def cost_lines(path):
    out = []
    for line in open(path):
        j = json.loads(line)
        if "error" in j:
            out.append({"set": j["set"], "mode": j["mode"], "error": j["error"]})
            continue
        t, b, n = j["stats_total"], j["stats_after_first"], j["launches"]

        def per(key):
            return [round((x - (b[key][i] if i < len(b[key]) else 0)) * 1e3 / n, 2)
                    for i, x in enumerate(t[key])]
        out.append({"set": j["set"], "mode": j["mode"], "passes": j["passes"],
                    "counters": len(j["metrics"]), "launches": n,
                    "ms_per_launch": round(j["wall_per_launch_s"] * 1e3, 2),
                    "start_ms_by_pass": per("start_s_by_pass"),
                    "stop_ms_by_pass": per("stop_s_by_pass")})
    return out


def tensor_check(d):
    rows = []
    text = open(os.path.join(d, "tensor-dense-ncu.csv")).read()
    lines = [l for l in text.splitlines() if l.startswith('"')]
    for r in csv.DictReader(io.StringIO("\n".join(lines))):
        v = float(r["Metric Value"].replace(",", "") or 0)
        if v > 0:
            rows.append({"ncu_id": r["ID"], "kernel": r["Kernel Name"], "metric": r["Metric Name"],
                         "ncu": v})
    run = json.load(open(os.path.join(d, "tensor-dense.json")))
    ours = [{"kernel": k["name"], "counters": {m: v for m, v in k["counters"].items()
                                              if "ops_path" in m and v}}
            for k in run["kernels"] if any("ops_path" in m and v for m, v in k["counters"].items())]
    return {"ncu_nonzero_tensor_counters": rows, "roofline_cuda_profile": ours}


def main():
    out, calls = sys.argv[1], sys.argv[2:]
    doc = {"schema": "roofkit.validation/1",
           "what": "what a profiled launch's replay passes cost on the H100 (user range per launch, "
                   "the range profiler kept enabled, 10-20 launches of a 1M-element kernel after one "
                   "warm-up call), by counter, by set and by order; and whether a tensor family's dense "
                   "_sparsity_off counter equals the family's own counter on dense GEMMs",
           "device": "NVIDIA H100 80GB HBM3, driver 580.159.04, CUDA 13.0, Nsight Compute 2025.3.1",
           "date": "2026-11-26", "calls": {}}
    for item in calls:
        label, d = item.split("=", 1)
        call = {}
        for name in ("profiler-cost.jsonl", "profiler-cost-each.jsonl",
                     "profiler-cost-sparsity.jsonl", "set-cost.jsonl"):
            p = os.path.join(d, name)
            if os.path.exists(p) and os.path.getsize(p) > 0:
                call[name.removesuffix(".jsonl")] = cost_lines(p)
        if os.path.exists(os.path.join(d, "tensor-dense-ncu.csv")):
            call["tensor_dense"] = tensor_check(d)
        doc["calls"][label] = call
    json.dump(doc, open(out, "w"), indent=1)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""For radix-causes.sh.

  radix_causes_json.py limit-ptx PTX ENTRY REGS   adds `.maxnreg REGS` to the PTX entry whose
                                                  name contains ENTRY (after its .maxntid line)
  radix_causes_json.py report DIR REV             the evidence JSON from DIR's runs

The report sets each cause's prediction beside the measured times:
  - tail: a partial last wave costs time only if the onesweep kernel's time per key steps at the
    wave boundaries. Up to one wave (396 blocks) every block starts at once; the report fits the
    time of 1-wave and 2-wave grids with a line through their per-key cost, and gives each grid's
    time against that line and against the whole-waves model (time of ceil(waves) full waves);
  - occupancy: the onesweep kernel held to 40 registers (4 blocks per SM) against as built (3),
    on the application's keys and on each size of the sweep;
  - bank conflicts: the histogram kernel's time with its atomics on 32 distinct banks, on random
    banks and on one bank, beside ncu's count of their wavefronts;
  - layer norm: the same per-row fit over 2 to 3 waves."""
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import ncu_csv  # noqa: E402
import lab_json  # noqa: E402
from lab_json import record  # noqa: E402

KERNELS_PER_SORT = 6  # histogram, exclusive sum, one onesweep pass per 8-bit digit of 32-bit keys


def limit_ptx(path, entry, regs):
    text = open(path).read()
    if ".maxnreg" in text:
        sys.exit("limit-ptx: the PTX already has a .maxnreg")
    at = text.find(".entry ")
    while at >= 0 and entry not in text[at:text.find("(", at)]:
        at = text.find(".entry ", at + 1)
    if at < 0:
        sys.exit(f"limit-ptx: no entry containing {entry}")
    bounds = text.find(".maxntid", at)
    end = text.find("\n", bounds)
    if bounds < 0 or bounds > text.find("{", at):
        sys.exit("limit-ptx: the entry has no .maxntid line")
    open(path, "w").write(text[:end] + f"\n.maxnreg {regs}" + text[end:])


def launches(path):
    out = []
    for r in ncu_csv.rows(path):
        m = {k: r[k] for k in r if "__" in k}
        row = {"kernel": ncu_csv.base_name(r["Kernel Name"])}
        for k, v in m.items():
            try:
                row[k] = ncu_csv.num(v)
            except ValueError:
                pass
        out.append(row)
    return out


def sorts(d, name):
    """The program's sorts, each with its six launches from ncu's export, in order."""
    prog = json.load(open(os.path.join(d, name + ".json")))
    rows = launches(os.path.join(d, name + ".csv"))
    if len(rows) != KERNELS_PER_SORT * len(prog["sorts"]) or not prog["all_sorted"]:
        sys.exit(f"{name}: {len(rows)} launches for {len(prog['sorts'])} sorts, "
                 f"all sorted: {prog['all_sorted']}")
    for i, s in enumerate(prog["sorts"]):
        s["launches"] = rows[KERNELS_PER_SORT * i:KERNELS_PER_SORT * (i + 1)]
    return prog["sorts"]


def kernel_of(sort, name):
    return [k for k in sort["launches"] if k["kernel"] == name]


def med(xs):
    return statistics.median(xs)


def facts(k):
    return {"grid": int(k["launch__grid_size"]), "block": int(k["launch__block_size"]),
            "registers": int(k["launch__registers_per_thread"]),
            "blocks_per_sm_by_registers": int(k["launch__occupancy_limit_registers"]),
            "waves": round(k["launch__waves_per_multiprocessor"], 3)}


def wave_fit(points):
    """points: (waves, median_ms) per grid. The line through the fewest- and most-wave grids
    at whole waves, and each grid against it and against the whole-waves model."""
    whole = [p for p in points if abs(p[0] - round(p[0])) < 1e-3]
    lo, hi = (min(whole), max(whole)) if len(whole) > 1 else (min(points), max(points))
    per_wave = (hi[1] - lo[1]) / (hi[0] - lo[0])
    out = []
    for waves, ms in points:
        linear = lo[1] + per_wave * (waves - lo[0])
        ceil_waves = max(lo[0], -(-round(waves, 3) // 1))
        whole_waves = lo[1] + per_wave * (ceil_waves - lo[0])
        out.append({"waves": round(waves, 3), "median_ms": round(ms, 5),
                    "vs_linear": round(ms / linear, 4), "whole_waves_model_ms": round(whole_waves, 5),
                    "vs_whole_waves_model": round(ms / whole_waves, 4)})
    return out


def onesweep_sweep(d, name="default-sweep"):
    by_n = {}
    for s in sorts(d, name):
        by_n.setdefault(s["n"], []).append(s)
    points, rows = [], []
    for n, group in sorted(by_n.items()):
        one = [kernel_of(s, "DeviceRadixSortOnesweepKernel") for s in group]
        ms = med([1e-6 * sum(k["gpu__time_duration.sum"] for k in passes) / len(passes)
                  for passes in one])
        f = facts(one[0][0])
        points.append((f["waves"], ms))
        rows.append({"keys": n, **f, "median_ms_per_pass": round(ms, 5),
                     "ns_per_key": round(1e6 * ms / n, 5)})
    for r, fit in zip(rows, wave_fit(points)):
        r.update({k: v for k, v in fit.items() if k not in ("waves", "median_ms")})
    return rows


def onesweep_registers(d):
    out = {}
    for label, name in (("as_built", "default-keys"), ("40_registers", "limited-app")):
        runs = [s for s in sorts(d, name) if s["keys"] == "random"]
        one = [k for s in runs for k in kernel_of(s, "DeviceRadixSortOnesweepKernel")]
        out[label] = {**facts(one[0]),
                      "achieved_occupancy_pct": round(med(
                          [k["sm__warps_active.avg.pct_of_peak_sustained_active"] for k in one]), 2),
                      "median_ms_per_pass": round(1e-6 * med(
                          [k["gpu__time_duration.sum"] for k in one]), 5), "launches": len(one)}
    out["speedup_of_40_registers"] = round(
        out["as_built"]["median_ms_per_pass"] / out["40_registers"]["median_ms_per_pass"], 4)
    # The same keys at every size of the sweep: each build's own waves and time.
    limited = {r["keys"]: r for r in onesweep_sweep(d, "limited-sweep")}
    out["by_keys"] = [{"keys": r["keys"], "waves_as_built": r["waves"],
                       "waves_40_registers": limited[r["keys"]]["waves"],
                       "ms_as_built": r["median_ms_per_pass"],
                       "ms_40_registers": limited[r["keys"]]["median_ms_per_pass"],
                       "speedup_of_40_registers": round(
                           r["median_ms_per_pass"] / limited[r["keys"]]["median_ms_per_pass"], 4)}
                      for r in onesweep_sweep(d)]
    out["40_registers"]["ptxas"] = ptxas_line(os.path.join(d, "limited.ptxas"),
                                              "DeviceRadixSortOnesweepKernel")
    return out


def ptxas_line(path, entry):
    """ptxas -v's stack and spill line for the entry whose name contains `entry`."""
    lines = open(path).read().splitlines()
    start = next(i for i, l in enumerate(lines) if "Compiling entry" in l and entry in l)
    return next(l.strip() for l in lines[start:] if "spill" in l)


def histogram_banks(d):
    out = {}
    for s in sorts(d, "default-keys"):
        out.setdefault(s["keys"], []).extend(kernel_of(s, "DeviceRadixSortHistogramKernel"))
    rows = {}
    for pattern, ks in out.items():
        wf = med([k["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"] for k in ks])
        conflicts = med([k["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum"]
                         for k in ks])
        rows[pattern] = {**facts(ks[0]), "launches": len(ks),
                         "median_ms": round(1e-6 * med([k["gpu__time_duration.sum"] for k in ks]), 5),
                         "atomic_wavefronts": wf, "atomic_bank_conflicts": conflicts}
    for r in rows.values():
        r["vs_spread"] = round(r["median_ms"] / rows["spread"]["median_ms"], 4)
    return rows


def layer_norm(d):
    prog = json.load(open(os.path.join(d, "layer-norm.json")))
    ks = [k for k in launches(os.path.join(d, "layer-norm.csv"))
          if k["kernel"] == "vectorized_layer_norm_kernel"]
    if len(ks) != sum(r["launches"] for r in prog["runs"]) or not prog["all_checked"]:
        sys.exit(f"layer-norm: {len(ks)} launches, checked: {prog['all_checked']}")
    rows, points, i = [], [], 0
    for r in prog["runs"]:
        group = ks[i:i + r["launches"]]
        i += r["launches"]
        ms = 1e-6 * med([k["gpu__time_duration.sum"] for k in group])
        f = facts(group[0])
        points.append((f["waves"], ms))
        rows.append({"rows": r["rows"], **f, "median_ms": round(ms, 5),
                     "max_abs_error": r["max_abs_error"]})
    for r, fit in zip(rows, wave_fit(points)):
        r.update({k: v for k, v in fit.items() if k not in ("waves", "median_ms")})
    return {"channels": prog["channels"], "grids": rows}


def clocks(d):
    samples = [list(map(float, l.split(","))) for l in open(os.path.join(d, "smi.csv"))
               if l.strip()]
    busy = [c for c in samples if c[2] > 0] or samples
    return {"sm_median": med([c[0] for c in busy]), "mem_median": med([c[1] for c in busy]),
            "busy_samples": len(busy), "samples": len(samples)}


def report(d, rev):
    return record(
        "the causes roofkit and ncu name for CUB's onesweep sort and PyTorch's layer norm, "
        "separated by changing one thing at a time: the grid's waves, the onesweep kernel's "
        "registers, the banks of the histogram's atomics (ncu times each kernel, "
        "--cache-control all --clock-control none)",
        "REV=rev validation/lab/radix-causes.sh", rev, clocks_mhz=clocks(d),
        onesweep_waves=onesweep_sweep(d), onesweep_registers=onesweep_registers(d),
        histogram_banks=histogram_banks(d), layer_norm_waves=layer_norm(d))


def main(argv):
    if len(argv) == 5 and argv[1] == "limit-ptx":
        return limit_ptx(argv[2], argv[3], int(argv[4]))
    if len(argv) == 4 and argv[1] == "report":
        return lab_json.main(argv[1:], report, __doc__)
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""roofkit's diagnosis against Nsight Compute's rule results (`ncu --set full`, details page), and
roofkit's registers per thread against ncu's launch__registers_per_thread, launch by launch, on
the same launches of each application (issue 37). validation/scripts/diagnosis-vs-ncu.sh runs
both tools and then this script; the test validation.diagnosis_vs_ncu_parser runs it on the
fixture in tests/data/ncu-details/.

usage: diagnosis_vs_ncu.py LOGDIR [LOGDIR...] OUTDIR [--gpu NAME] [--apps a,b]
                           [--expect k=v,...]
A LOGDIR (the unpacked diagnosis-vs-ncu-logs.tgz of a run; several when the applications were
run in several calls) holds, per application APP: APP.json (`roofline-cuda profile -o`,
roofkit.run/1), APP-details.csv (`ncu --import APP.ncu-rep --page details --csv`) and
APP-raw.csv (`ncu --import APP.ncu-rep --page raw --csv --print-units base --metrics
launch__...`); optionally provenance.json (device, date, git revision, command) and
steps.json (each step's exit code and seconds). Writes OUTDIR/diagnosis-vs-ncu-GPU.json and .md. --expect checks summary counts (for
the test) and exits 1 when one differs.

Matching. Both tools run the same command (one iteration, profiling from cudaProfilerStart on).
A launch is keyed by its kernel: the mangled name where ncu prints mangled names (the script
imports with --print-kernel-base mangled) and roofkit knows it, else the function's own
identifier (ncu_csv.base_name: no scope, template arguments or parameters). The k-th launch of
a key in roofkit's run (launches in launch order) is matched with the k-th launch of that key
in ncu's report (ncu's IDs are in launch order). A matched pair whose grid or block differ is
reported as a shape mismatch and left out.

Rows. One row per kernel of roofkit's run (its display_name; a kernel launched with several
shapes has one row per shape) holding at least 1% of the application's GPU time, by either
tool's durations of the matched launches. roofkit's limiter is that kernel's
diagnosis.limiter. ncu's limiter is taken per launch (main_limiter below) and, for a kernel
with several launches, is the limiter holding most of their ncu duration.

ncu's main limiter of one launch, in the vocabulary of DIAGNOSIS-SCHEMA.md, from its rule
messages (classify() maps each message by rule name and text):
 1. the specific-cause message with the largest estimated speedup, if one reaches 10%:
    occupancy_* (TheoreticalOccupancy: "limited by the number of required registers" ...),
    uncoalesced_access (UncoalescedGlobalAccess; MemoryCacheAccessPattern "only N of the 32
    bytes"), bank_conflicts (SharedMemoryConflicts, UncoalescedSharedAccess), tail_effect
    (LaunchConfiguration's partial wave), small_grid (LaunchConfiguration's grid smaller
    than the SM count), local_memory (spilling or local-memory messages);
 2. else SOLBottleneck's verdict: above 80% of a unit -> that unit (DRAM -> dram_bandwidth,
    L2 -> l2_bandwidth, L1 -> l1_bandwidth, else compute); grid too small for one wave ->
    small_grid; memory more heavily used than compute -> the memory unit it names;
    compute more heavily used -> compute; balanced -> the unit with the highest throughput
    of the Speed Of Light section;
 3. else ("latency issue": below 60% of every peak) the stall message (CPIStall) with the
    largest speedup, by the reason it names (STALL_WORDS): waiting on L1TEX (long scoreboard)
    -> latency_hiding; the LG queue -> memory_instructions; MIO or shared memory ->
    shared_memory; barriers and fences -> synchronization; fixed latency, a busy pipe or
    "not selected" -> compute; instruction fetch or branches -> instruction_fetch; another
    reason -> warp_stalls; no stall message -> latency_hiding.
ncu's small_grid is the same limiter as roofkit's launch_overhead or tail_effect (SAME_AS): ncu
has one verdict for a grid with fewer blocks than SMs, roofkit two, by the kernel's duration.

Every disagreement gets a row "why" (difference()): the class of disagreement, the tool the
evidence says is right ("roofkit", "ncu", "neither" or "open") and that evidence, from the two
tools' figures for the launch (ncu's message text, roofkit's counters, findings and stall
samples), from validation/data/tail-waves-h200.json for ncu's partial-wave estimate, and from
validation/data/radix-causes-h200.json where a kernel was changed one cause at a time in the lab
(its waves, its registers, its histogram's banks), and from validation/data/open-rows-h200.json
(the histogram over key counts at one wave; ncu's warp-stall samples of a launch by reason and
by kind of instruction).

Summary-level or out-of-vocabulary rules (IssueSlotUtilization, AchievedOccupancy,
HighPipeUtilization, WorkloadImbalance, MemoryL2Compression, SOLFPRoofline, PMSamplingData,
...) never decide; they are kept in each row's list of ncu's messages."""
import argparse
import csv
import datetime
import functools
import io
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ncu_csv import base_name, num  # noqa: E402

SPECIFIC = ("occupancy_registers", "occupancy_shared_memory", "occupancy_blocks",
            "occupancy_warps", "uncoalesced_access", "bank_conflicts", "tail_effect",
            "small_grid", "local_memory")
# ncu's one small-grid verdict is either of two of roofkit's limiters, which split it by the
# kernel's duration (docs/diagnosis.md): launch_overhead (a short kernel) and tail_effect.
SAME_AS = {"small_grid": ("launch_overhead", "tail_effect")}
MIN_SPEEDUP = 10.0  # percent: below it a specific cause does not decide
SHARE = 0.01        # rows: kernels with at least this share of the application's GPU time
TIME_UNITS = {"ns": 1.0, "nsecond": 1.0, "us": 1e3, "usecond": 1e3, "ms": 1e6, "msecond": 1e6,
              "s": 1e9, "second": 1e9}


def table(text):
    """The data rows of an ncu CSV export as dicts, and its units row (raw page) or {}. Lines
    around the table and stray rows (ncu's NVLink topology table inside the details page) are
    left out: a data row starts with the launch ID and has the header's length, or is the
    details page's shorter metric row (ncu leaves out a metric row's empty rule columns)."""
    start = text.find('"ID","Process ID"')
    if start < 0:
        return [], {}
    rows = list(csv.reader(io.StringIO(text[start:])))
    head = rows[0]
    need = head.index("Kernel Name") + 2 if "Kernel Name" in head else len(head)
    units = {}
    out = []
    for r in rows[1:]:
        if r and r[0] == "" and len(r) == len(head) and not units:
            units = dict(zip(head, r))
        elif r and r[0].isdigit() and len(r) >= need:
            out.append(dict(zip(head, r)))
    return out, units


def read(path):
    try:
        return open(path, encoding="utf-8", errors="replace").read()
    except OSError:
        return ""


MEMORY_UNITS = (("DRAM", "dram_bandwidth"), ("L2", "l2_bandwidth"), ("L1", "l1_bandwidth"))
SOL_METRICS = {"compute": "Compute (SM) Throughput", "dram_bandwidth": "DRAM Throughput",
               "l2_bandwidth": "L2 Cache Throughput", "l1_bandwidth": "L1/TEX Cache Throughput"}


def busiest(metrics, memory_only):
    """The unit with the highest throughput (% of peak) in the Speed Of Light section."""
    units = [u for u in SOL_METRICS if not (memory_only and u == "compute")]
    return max(units, key=lambda u: metrics.get(SOL_METRICS[u], 0))


def sol_verdict(text, metrics):
    """SOLBottleneck's message as a limiter ('latency' for its latency verdict)."""
    t = text.lower()
    named = next((lim for unit, lim in MEMORY_UNITS
                  if re.search(rf"\b(analyzing|identify the) {unit}\b", text)), None)
    if "too small to fill" in t:
        return "small_grid"
    if "greater than 80" in t:  # "Start by analyzing DRAM|L2|L1|workloads in the ... section"
        if named:
            return named
        return "compute" if "compute workload analysis" in t else busiest(metrics, True)
    if "memory is more heavily utilized" in t:
        return named or busiest(metrics, True)
    if "compute is more heavily utilized" in t:
        return "compute"
    if "well-balanced" in t:
        return busiest(metrics, False)
    if "latency issues" in t:
        return "latency"
    return None


OCCUPANCY_LIMITERS = (("required registers", "occupancy_registers"),
                      ("amount of shared memory", "occupancy_shared_memory"),
                      ("number of blocks", "occupancy_blocks"),
                      ("warps within each block", "occupancy_warps"))


# ncu's stall messages (CPIStall rules) by the words that name the reason, in the order tried,
# and the limiter roofkit's stall finding gives the same reasons (docs/diagnosis.md).
STALL_WORDS = ((r"dependency on an? l1tex", "latency_hiding"),       # long scoreboard
               (r"\(lg\)|lg throttle|local and global", "memory_instructions"),
               (r"\bmio\b|shared memory", "shared_memory"),         # MIO throttle, short sb.
               (r"barrier|membar|memory fence", "synchronization"),
               (r"fixed latency|execution pipe|math pipe|not selected|dispatch", "compute"),
               (r"instruction cache|fetch|branch", "instruction_fetch"))


def stall_limiter(text):
    for pattern, limiter in STALL_WORDS:
        if re.search(pattern, text):
            return limiter
    return "warp_stalls"


def classify(rule, text, metrics):
    """A rule message's category: a limiter of DIAGNOSIS-SCHEMA.md, 'sol:<limiter>' for
    SOLBottleneck's verdict, 'stall:<limiter>' for a stall message, or 'other'."""
    t = text.lower()
    if rule == "SOLBottleneck":
        verdict = sol_verdict(text, metrics)
        return "sol:" + verdict if verdict else "other"
    if rule.startswith("CPIStall"):
        if "stalled" not in t:
            return "other"  # the pointer to the stall sampling table
        return "stall:" + stall_limiter(t)
    if rule == "TheoreticalOccupancy" or ("theoretical occupancy (" in t and "limited by" in t):
        found = [(t.find(k), lim) for k, lim in OCCUPANCY_LIMITERS if k in t]
        return min(found)[1] if found else "other"  # the first one named (ties are listed)
    if "spill" in t or re.search(r"\blocal (loads|stores|memory)\b", t):
        return "local_memory"
    if rule == "UncoalescedGlobalAccess" or "uncoalesced global" in t or \
            re.search(r"only [\d.]+ of the 32 bytes", t):
        return "uncoalesced_access"
    if rule in ("SharedMemoryConflicts", "UncoalescedSharedAccess") or "bank conflict" in t or \
            "uncoalesced shared" in t:
        return "bank_conflicts"
    if rule in ("LaunchConfiguration", "TailEffect"):
        if "partial wave" in t:
            return "tail_effect"
        if "less than the gpu's" in t:
            return "small_grid"
    return "other"


def same(ours, theirs):
    return ours == theirs or ours in SAME_AS.get(theirs, ())


def speedup(r):
    try:
        return num(r.get("Estimated Speedup") or 0)
    except ValueError:
        return 0.0


def decides(m):
    """A specific cause that can decide: an optimisation message whose estimated speedup of the
    whole launch (type global; a local speedup is that of one metric) reaches MIN_SPEEDUP."""
    return (m["category"] in SPECIFIC and m["type"] in ("OPT", "WRN") and
            m["speedup_type"].lower() != "local" and m["speedup"] >= MIN_SPEEDUP)


def main_limiter(messages):
    """ncu's main limiter of one launch from its classified messages (see the module doc);
    returns (limiter, the deciding message or None)."""
    specific = [m for m in messages if decides(m)]
    if specific:
        best = max(specific, key=lambda m: m["speedup"])
        return best["category"], best
    sol = next((m for m in messages if m["category"].startswith("sol:")), None)
    if sol and sol["category"] != "sol:latency":
        return sol["category"][4:], sol
    stalls = [m for m in messages if m["category"].startswith("stall:")]
    if stalls:
        best = max(stalls, key=lambda m: m["speedup"])
        return best["category"][6:], best
    return "latency_hiding", sol


def flagged(messages):
    """Every cause ncu names for a launch: the deciding kinds, SOLBottleneck's verdict and the
    stall messages reaching MIN_SPEEDUP."""
    out = set()
    for m in messages:
        c = m["category"]
        if decides(m):
            out.add(c)
        elif c.startswith("sol:"):
            out.add("latency_hiding" if c == "sol:latency" else c[4:])
        elif c.startswith("stall:") and m["speedup"] >= MIN_SPEEDUP:
            out.add(c[6:])
    return out


def ncu_launches(details_text, raw_text):
    """ncu's launches in ID order: kernel, grid, block, duration (ns), registers, rule messages,
    main limiter."""
    out = {}
    for r in table(details_text)[0]:
        lid = int(r["ID"])
        l = out.setdefault(lid, {"id": lid, "kernel": r["Kernel Name"], "grid": r["Grid Size"],
                                 "block": r["Block Size"], "metrics": {}, "messages": []})
        if r.get("Rule Name"):
            l["messages"].append({"rule": r["Rule Name"], "type": r.get("Rule Type", ""),
                                  "section": r.get("Section Name", ""),
                                  "text": " ".join(r.get("Rule Description", "").split()),
                                  "speedup": speedup(r),
                                  "speedup_type": r.get("Estimated Speedup Type", "")})
        elif r.get("Metric Name") and not r.get("Body Item Label"):
            try:
                value = num(r.get("Metric Value", ""))
            except ValueError:
                continue
            name = r["Metric Name"]
            if r.get("Section Name") == "GPU Speed Of Light Throughput" or name not in l["metrics"]:
                l["metrics"][name] = value
            if name == "Duration":
                l["metrics"]["duration_ns"] = value * TIME_UNITS.get(r.get("Metric Unit", ""), 1)
    raw, units = table(raw_text)
    for r in raw:
        l = out.get(int(r["ID"]))
        if l is None:
            continue
        for metric in ("launch__registers_per_thread", "gpu__time_duration.sum"):
            try:
                value = num(r.get(metric, ""))
            except ValueError:
                continue
            if metric == "gpu__time_duration.sum":
                l["metrics"]["duration_ns"] = value * TIME_UNITS.get(units.get(metric, "ns"), 1)
            else:
                l["metrics"][metric] = value
    launches = [out[k] for k in sorted(out)]
    for l in launches:
        for m in l["messages"]:
            m["category"] = classify(m["rule"], m["text"], l["metrics"])
        l["limiter"], l["deciding"] = main_limiter(l["messages"])
        regs = l["metrics"].get("launch__registers_per_thread",
                                l["metrics"].get("Registers Per Thread"))
        l["registers"] = int(regs) if regs is not None else None
    return launches


def dims(text):
    """'(256, 1, 1)' or [256, 1, 1] -> (256, 1, 1)."""
    if isinstance(text, (list, tuple)):
        return tuple(int(x) for x in text)
    return tuple(int(x) for x in re.findall(r"\d+", str(text).replace(",", " ")))


def strip_shape(name):
    return re.sub(r" \[grid [^\]]*\]$", "", name)


def our_kernels(run):
    """Our kernels by (demangled name, grid, block): display name, limiter, verdict."""
    out = {}
    for k in run.get("kernels", []):
        launch = k.get("launch", {})
        key = (strip_shape(k.get("demangled_name") or k["name"]), dims(launch.get("grid", [])),
               dims(launch.get("block", [])))
        out[key] = k
    return out


def key_of(name, mangled, use_mangled):
    if use_mangled and mangled:
        return mangled
    return base_name(name)


def match(ours, theirs):
    """Pairs (our launch, ncu launch) by key and order within the key (see the module doc)."""
    use_mangled = any(l["kernel"].startswith("_Z") for l in theirs)
    queues = {}
    for l in theirs:
        queues.setdefault(key_of(l["kernel"], l["kernel"] if use_mangled else "", use_mangled),
                          []).append(l)
    pairs, unmatched = [], []
    for o in ours:
        q = queues.get(key_of(o.get("demangled_name") or o["name"], o.get("mangled_name", ""),
                              use_mangled))
        if q:
            pairs.append((o, q.pop(0)))
        else:
            unmatched.append(o)
    left = sum(len(q) for q in queues.values())
    return pairs, unmatched, left


def compare_app(app, run, theirs):
    """Rows (one per kernel shape) and register checks of one application."""
    ours = sorted(run.get("profile", {}).get("launches", []), key=lambda l: l.get("index", 0))
    kernels = our_kernels(run)
    pairs, unmatched, ncu_left = match(ours, theirs)
    regs = {"compared": 0, "equal": 0, "nonzero": 0, "mismatches": []}
    rows, mismatched_shape = {}, []
    for o, t in pairs:
        grid, block = dims(o["launch"]["grid"]), dims(o["launch"]["block"])
        if (grid, block) != (dims(t["grid"]), dims(t["block"])):
            mismatched_shape.append({"ours": o["name"], "ncu_id": t["id"], "ours_grid": grid,
                                     "ncu_grid": dims(t["grid"])})
            continue
        mine = o["launch"].get("registers_per_thread", 0)
        regs["compared"] += 1
        regs["nonzero"] += mine > 0
        if t["registers"] is not None and mine == t["registers"]:
            regs["equal"] += 1
        elif len(regs["mismatches"]) < 20:
            regs["mismatches"].append({"kernel": o.get("display_name") or o["name"],
                                       "ncu_id": t["id"], "ours": mine, "ncu": t["registers"]})
        key = (strip_shape(o.get("demangled_name") or o["name"]), grid, block)
        row = rows.setdefault(key, {"kernel": kernels.get(key, o), "first": o, "launches": [],
                                    "ours_s": 0.0, "ncu_ns": 0.0})
        row["launches"].append(t)
        row["ours_s"] += o.get("gpu_time_s") or 0.0
        row["ncu_ns"] += t["metrics"].get("duration_ns", 0.0)
    ours_total = sum(o.get("gpu_time_s") or 0.0 for o in ours) or 1.0
    ncu_total = sum(t["metrics"].get("duration_ns", 0.0) for t in theirs) or 1.0
    sms = int(run.get("context", {}).get("sms") or 0)
    out = [row_of(app, r, r["ours_s"] / ours_total, r["ncu_ns"] / ncu_total, sms)
           for r in rows.values()]
    out = [r for r in out if max(r["time_share"].values()) >= SHARE]
    out.sort(key=lambda row: -max(row["time_share"].values()))
    regs["ours_zero_all_launches"] = sum(
        not o.get("launch", {}).get("registers_per_thread") for o in ours)
    launches = {"ours": len(ours), "ncu": len(theirs), "matched": len(pairs),
                "ours_unmatched": len(unmatched), "ncu_unmatched": ncu_left,
                "shape_mismatches": mismatched_shape[:20],
                "shape_mismatch_count": len(mismatched_shape)}
    return out, regs, launches


TAIL_EVIDENCE = "validation/data/tail-waves-h200.json"
SMALL_GRID_EVIDENCE = "validation/data/small-grid-h200.json"
CAUSES_EVIDENCE = "validation/data/radix-causes-h200.json"
OPEN_ROWS_EVIDENCE = "validation/data/open-rows-h200.json"
NEAR_ROOF = 80  # roofkit's near_roof_pct
TAIL_THRESHOLD = 0.10  # roofkit's (lib/src/diagnosis/diagnosis_internal.hpp, tail_threshold)
SHARED_STALLS = ("short_scoreboard", "mio_throttle")
LD_ST = (("smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum",
          "smsp__sass_inst_executed_op_global_ld.sum"),
         ("smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum",
          "smsp__sass_inst_executed_op_global_st.sum"))
# The bytes the threads of global loads and stores asked for (runs since roofkit collects them).
LD_ST_BYTES = ("smsp__sass_data_bytes_mem_global_op_ld.sum",
               "smsp__sass_data_bytes_mem_global_op_st.sum")


def counter(k, name):
    return (k.get("counters") or {}).get(name)


def finding(diag, kind):
    return next((f for f in diag.get("findings", []) if f["kind"] == kind), None)


def why(kind, right, text):
    return {"class": kind, "right": right, "text": text}


@functools.lru_cache(maxsize=None)
def lab_causes():
    """CAUSES_EVIDENCE and OPEN_ROWS_EVIDENCE by the kernel they changed or sampled: each grid's
    time against the line through its sweep's whole-wave grids ("tail"), the speedups of the
    build held to fewer registers ("registers"), the histogram's times by bank pattern ("banks")
    and over key counts ("sizes"), ncu's warp-stall samples ("stalls")."""
    out = {}
    try:
        ev = json.load(open(CAUSES_EVIDENCE))
        out = {
            "DeviceRadixSortOnesweepKernel": {
                "tail": {r["grid"]: r["vs_linear"] for r in ev["onesweep_waves"]},
                "registers": [r["speedup_of_40_registers"]
                              for r in ev["onesweep_registers"]["by_keys"]],
                "limited": ev["onesweep_registers"]["40_registers"]},
            "DeviceRadixSortHistogramKernel": {"banks": ev["histogram_banks"]},
            "vectorized_layer_norm_kernel": {
                "tail": {r["grid"]: r["vs_linear"] for r in ev["layer_norm_waves"]["grids"]}}}
    except (OSError, KeyError, ValueError):
        pass
    try:
        ev = json.load(open(OPEN_ROWS_EVIDENCE))
        out.setdefault("DeviceRadixSortHistogramKernel", {})["sizes"] = ev["histogram_sizes"]
        for name, sampled in ev["stall_sources"].items():
            out.setdefault(name, {})["stalls"] = sampled
    except (OSError, KeyError, ValueError):
        pass
    return out


def lab_of(k):
    name = k.get("name") or k.get("display_name") or ""
    return next((v for key, v in lab_causes().items() if key in name), {})


def measured_tail(k, diag, deciding, blocks):
    """The lab's cost of this grid's partial wave, when it was measured and under roofkit's
    threshold: ncu's estimate refuted, and roofkit's own cause weighed if the lab changed it."""
    lab = lab_of(k)
    cost = lab.get("tail", {}).get(blocks)
    if cost is None or cost - 1 > TAIL_THRESHOLD:
        return None
    measured = (f"measured: this grid runs {cost - 1:.0%} above the line through the kernel's "
                f"whole-wave grids, where ncu estimates up to {deciding['speedup']:.0f}% "
                f"({CAUSES_EVIDENCE})")
    regs, limited = lab.get("registers"), lab.get("limited", {})
    if diag.get("limiter", "").startswith("occupancy_") and regs and max(regs) < 1:
        return why("tail_vs_other", "neither",
                   f"{measured}; held to {limited.get('registers')} registers "
                   f"({limited.get('blocks_per_sm_by_registers')} blocks per SM, "
                   f"{limited.get('achieved_occupancy_pct', 0):.0f}% achieved occupancy; ptxas: "
                   f"{limited.get('ptxas', '')}), the kernel ran {1 - max(regs):.0%} to "
                   f"{1 - min(regs):.0%} slower at every size: neither cause holds")
    return why("tail_vs_other", "roofkit",
               f"{measured}: the partial wave is under roofkit's {TAIL_THRESHOLD:.0%} "
               f"threshold, so its ranking of {diag.get('limiter')} first stands")


def measured_banks(k, diag, deciding):
    """The lab's histogram with its atomics on 32 distinct banks, random banks and one bank, and
    over key counts at the same one-wave grid (measured_sizes)."""
    banks = lab_of(k).get("banks", {})
    if not {"random", "spread", "one_bank"} <= banks.keys():
        return None
    r, s, o = banks["random"], banks["spread"], banks["one_bank"]
    saved = r["median_ms"] / s["median_ms"] - 1
    if 100 * saved >= deciding["speedup"] / 2:
        return None
    refuted = (f"measured: with no bank conflicts the kernel ran {saved:.0%} faster than with "
               f"random keys, and with every atomic on one bank "
               f"({o['atomic_wavefronts'] / r['atomic_wavefronts']:.1f}x the wavefronts) "
               f"{r['median_ms'] / o['median_ms'] - 1:.0%} faster: ncu's "
               f"{deciding['speedup']:.0f}% is refuted ({CAUSES_EVIDENCE})")
    return measured_sizes(k, diag, refuted) or why(
        "shared_wavefronts", "open", refuted + "; roofkit's cause was not changed in the lab")


def measured_sizes(k, diag, refuted):
    """roofkit's bytes in flight (one load per warp) against the rate the same one-wave grid
    streams its keys at when each thread has more of them: twice that rate refutes it."""
    sizes = lab_of(k).get("sizes")
    f = next((f for f in diag.get("findings", [])
              if "bytes_in_flight" in f.get("evidence", {})), None)
    if not sizes or not f:
        return None
    ev = f["evidence"]
    allowed = ev["bytes_in_flight"] / (ev["dram_latency_ns"] * 1e-9) / 1e9  # GB/s
    streams = sizes["streaming_gb_per_s"]
    if streams < 2 * allowed:
        return None
    app = next((r for r in sizes["rows"] if r["keys"] == sizes["app_keys"]), {})
    loads = app.get("global_loads_per_thread", 0)
    drain = lab_of(k).get("stalls", {}).get("reasons", {}).get("drain", 0)
    return why("shared_wavefronts", "neither",
               f"{refuted}. roofkit's bytes in flight at one load per warp allow "
               f"{allowed:.0f} GB/s, but the same one-wave grid streams keys at {streams:.0f} "
               f"GB/s when each thread has more of them (2^20 to 2^26 keys, "
               f"{OPEN_ROWS_EVIDENCE}): its warps keep several loads in flight. At the "
               f"application's {app.get('keys', 0):,} keys ({loads:.0f} loads a thread, "
               f"{app.get('dram_gb_per_s', 0):.0f} GB/s) the line through the sizes leaves "
               f"{sizes['fixed_share_at_app_keys']:.0%} of the time to a fixed cost "
               f"({sizes['fixed_ms'] * 1000:.1f} us of work that does not grow with the keys: "
               f"the blocks' start, clearing and merging their histograms; {drain:.0%} of "
               f"ncu's stall samples wait at exit for the global merge's atomics to drain): "
               f"too little work for the grid, which neither tool names")


def tail_difference(k, diag, deciding):
    """ncu's partial-wave estimate (1/ceil(waves) of the time, whatever the wave's fill)."""
    m = re.search(r"(\d+) full waves? and a partial wave of (\d+) thread blocks", deciding["text"])
    blocks = 1
    for d in dims(k["launch"]["grid"]):
        blocks *= d
    if not m or int(m.group(1)) == 0:
        return why("ncu_tail_estimate", "open", "ncu's partial-wave message gives no wave size")
    full, partial = int(m.group(1)), int(m.group(2))
    fill = partial / ((blocks - partial) / full)
    idle = (1 - fill) / (full + 1)
    lab = measured_tail(k, diag, deciding, blocks)
    if lab:
        return lab
    if idle <= TAIL_THRESHOLD:
        return why("ncu_tail_estimate", "roofkit",
                   f"ncu estimates a partial wave at up to 1/{full + 1} of the time whatever its "
                   f"fill; this one is {fill:.0%} full, so {idle:.0%} of the SM time is idle, "
                   f"below roofkit's {TAIL_THRESHOLD:.0%} tail threshold. The same work over "
                   f"1.94 waves ran no slower than over 1, 2 or 4 waves ({TAIL_EVIDENCE})")
    return why("tail_vs_other", "open",
               f"the last wave is {fill:.0%} full: {idle:.0%} of the SM time idle (ncu's "
               f"estimate: up to {deciding['speedup']:.0f}%); roofkit ranks "
               f"{diag.get('limiter')} higher. Both are costs; which is larger needs a change "
               "of the kernel to measure")


def shared_difference(k, diag, deciding):
    """ncu's excessive shared wavefronts against where roofkit's stall samples say warps wait."""
    lab = measured_banks(k, diag, deciding)
    if lab:
        return lab
    stalls = finding(diag, "warp_stalls")
    if not stalls:
        return why("shared_wavefronts", "open", "no stall samples to weigh ncu's estimate")
    ev = stalls["evidence"]
    waiting = sum(ev.get("stall_share_" + r, 0) for r in SHARED_STALLS)
    pct = diag.get("bound", {}).get("pct_of_roof", 0)
    if 100 * waiting < deciding["speedup"] / 2 and pct >= 60:
        return why("shared_wavefronts", "roofkit",
                   f"ncu estimates {deciding['speedup']:.0f}% from excessive shared wavefronts, "
                   f"but shared-memory waits ({', '.join(SHARED_STALLS)}) hold {waiting:.0%} of "
                   f"the top stall reasons of a kernel at {pct:.0f}% of its roof: the extra "
                   "wavefronts hide behind issuing warps")
    if 100 * waiting >= deciding["speedup"] / 2:
        return why("shared_wavefronts", "ncu",
                   f"shared-memory waits hold {waiting:.0%} of the top stall reasons, in line "
                   f"with ncu's {deciding['speedup']:.0f}%; roofkit's conflict counters (shared "
                   "loads and stores, per request) do not see the excess wavefronts ncu counts "
                   "per instruction")
    return why("shared_wavefronts", "open",
               f"shared-memory waits hold {waiting:.0%} of the top stall reasons against ncu's "
               f"{deciding['speedup']:.0f}%, in a kernel at {pct:.0f}% of its roof: neither "
               "figure settles it")


def uncoalesced_difference(k, diag, deciding):
    """ncu's per-instruction excess sectors against roofkit's sectors per request."""
    per_request = []
    for sectors, requests in LD_ST:
        n, d = counter(k, sectors), counter(k, requests)
        per_request.append(n / d if n and d else 0.0)
    own = finding(diag, "uncoalesced_access")
    if own:
        return why("uncoalesced_ranked_lower", "open",
                   f"roofkit finds it too ({100 * own['gain']:.0f}% of sectors unused) but "
                   f"ranks {diag.get('limiter')} first")
    asked = [counter(k, b) for b in LD_ST_BYTES]
    if all(b is not None for b in asked):
        sectors = sum(counter(k, s) or 0 for s, _ in LD_ST)
        used = sum(asked) / (32 * sectors) if sectors else 1.0
        sides = []
        for (sec, req), b, what in zip(LD_ST, asked, ("loads", "stores")):
            n = counter(k, req)
            if n:
                sides.append(f"{what} {counter(k, sec) / n:.1f} sectors for {b / n:.0f} B")
        text = (f"roofkit gives each request the sectors its threads' bytes need, at least "
                f"one ({', '.join(sides)} per request): under its 1.3x-traffic threshold; ncu "
                f"counts the bytes used per sector ({used:.0%}) and estimates "
                f"{deciding['speedup']:.0f}%. Few bytes per request call for more bytes per "
                f"thread or more threads per store, not for a different stride")
        return measured_stores(k, diag, deciding, text) or why(
            "uncoalesced_below_threshold", "open", text)
    return why("uncoalesced_width", "ncu",
               f"ncu compares each access with its own width (SASS source counters); roofkit "
               f"has sectors per request only ({per_request[0]:.1f} loads, "
               f"{per_request[1]:.1f} stores) and, not knowing the width, flags more than 16")


def measured_stores(k, diag, deciding, text):
    """ncu's own warp-stall samples of the launch: a global store costs time as the samples at
    the store (the LSU queue full: lg_throttle) and after EXIT (stores draining), which bound
    what wider stores could save; the rest of the samples against roofkit's top stall reason."""
    sampled = lab_of(k).get("stalls")
    stalls = finding(diag, "warp_stalls")
    if not sampled or not sampled.get("reasons") or not stalls:
        return None
    reasons = sampled["reasons"]
    at_stores = sampled.get("by_class", {}).get("global_store", 0)
    bound = at_stores + reasons.get("lg_throttle", 0) + reasons.get("drain", 0)
    ours = max(((r[len("stall_share_"):], v) for r, v in stalls["evidence"].items()
                if r.startswith("stall_share_")), key=lambda rv: rv[1], default=("", 0))
    theirs = next(iter(reasons))
    sampled_text = (f"; in ncu's own warp-stall samples of the launch ({OPEN_ROWS_EVIDENCE}) "
                    f"the stores hold {bound:.0%} (samples at STG {at_stores:.1%}, lg_throttle "
                    f"{reasons.get('lg_throttle', 0):.1%}, drain {reasons.get('drain', 0):.1%}) "
                    f"against ncu's {deciding['speedup']:.0f}%, and the top reason is "
                    f"{theirs} ({reasons[theirs]:.0%}; roofkit's: {ours[0]}, {ours[1]:.0%})")
    if 100 * bound >= deciding["speedup"]:
        return why("uncoalesced_below_threshold", "ncu", text + sampled_text)
    if 100 * bound < deciding["speedup"] / 2 and ours[0] == theirs:
        return why("uncoalesced_below_threshold", "roofkit", text + sampled_text +
                   ": the stores cannot save the time ncu estimates, and the warps wait where "
                   "roofkit says")
    return why("uncoalesced_below_threshold", "open", text + sampled_text)


def grid_waves(k, diag, sms):
    """The grid over the SMs' resident blocks at the launch's occupancy (roofkit's figures)."""
    waves = next((f["evidence"].get("waves") for f in diag.get("findings", [])
                  if "waves" in f.get("evidence", {})), None)
    per_sm = diag.get("occupancy", {}).get("active_blocks")
    if waves is None and per_sm and sms:
        blocks = 1
        for d in dims(k["launch"]["grid"]):
            blocks *= d
        waves = blocks / (per_sm * sms)
    return waves


def small_grid_evidence():
    """What a higher occupancy limit did to a grid of less than one wave (SMALL_GRID_EVIDENCE)."""
    try:
        runs = json.load(open(SMALL_GRID_EVIDENCE))["runs"]
        few = {r["blocks_per_sm"]: r["median_ms"] for r in runs if r["grid"] == 128}
        lo, hi = min(few), max(few)
        return (f"; measured: 128 blocks of a DRAM sum took {few[lo]:.4f} ms at {lo} blocks per "
                f"SM and {few[hi]:.4f} ms at {hi} ({SMALL_GRID_EVIDENCE})")
    except (OSError, KeyError, ValueError):
        return f" ({SMALL_GRID_EVIDENCE})"


def difference(k, diag, theirs, deciding, sms=0):
    """Why the two tools name different limiters, and which the evidence supports."""
    ours = diag.get("limiter", "none")
    waves = grid_waves(k, diag, sms)
    pct = diag.get("bound", {}).get("pct_of_roof", 0)
    if deciding and pct >= NEAR_ROOF and deciding["speedup"] > 100 - pct + 5:
        return why("beyond_the_roof", "roofkit",
                   f"the kernel runs at {pct:.0f}% of its {diag['bound'].get('roof', '')} roof "
                   f"measured on this GPU, which leaves {100 - pct:.0f}% to gain; ncu's "
                   f"estimate ({deciding['speedup']:.0f}%) is more than the roof allows")
    if theirs == "small_grid" and ours == "latency_hiding":
        return why("small_grid_as_bytes_in_flight", "open",
                   "ncu says the grid is too small to fill the device; roofkit measures what "
                   "that costs a memory-bound kernel (too few bytes in flight for the DRAM "
                   "roof): one cause under two names, and the fixes differ (a bigger grid, or "
                   "more loads in flight per thread)")
    if theirs == "tail_effect" and deciding:
        return tail_difference(k, diag, deciding)
    if theirs == "bank_conflicts" and deciding:
        return shared_difference(k, diag, deciding)
    if theirs == "uncoalesced_access" and deciding:
        return uncoalesced_difference(k, diag, deciding)
    if theirs.startswith("occupancy_") and waves is not None and waves <= 1:
        return why("grid_below_one_wave", "roofkit",
                   f"the grid fills {waves:.0%} of one wave at this occupancy: every block is "
                   "resident from the start, so a higher limit per SM adds no warps" +
                   small_grid_evidence())
    if ours == "unknown":
        return why("no_roofkit_cause", "ncu", "no roofkit finding explains half of the gap")
    return why("other", "open", "")


def row_of(app, r, ours_share, ncu_share, sms):
    """One kernel's row: our limiter, ncu's (by duration over its launches), ncu's messages."""
    k = r["kernel"]
    weight = {}
    for t in r["launches"]:
        weight[t["limiter"]] = weight.get(t["limiter"], 0) + t["metrics"].get("duration_ns", 0)
    theirs = max(weight, key=lambda lim: (weight[lim], lim))
    longest = max((t for t in r["launches"] if t["limiter"] == theirs),
                  key=lambda t: t["metrics"].get("duration_ns", 0))
    diag = k.get("diagnosis") or r["first"].get("diagnosis") or {}
    ours = diag.get("limiter", "none")
    named = sorted(set().union(*(flagged(t["messages"]) for t in r["launches"])))
    deciding = longest["deciding"]
    agree = same(ours, theirs)
    return {
        "app": app,
        "display_name": k.get("display_name") or r["first"].get("display_name") or k["name"],
        "demangled_name": k.get("demangled_name") or strip_shape(k["name"]),
        "grid": list(dims(k["launch"]["grid"])), "block": list(dims(k["launch"]["block"])),
        "launches": len(r["launches"]),
        "time_share": {"ours": round(ours_share, 4), "ncu": round(ncu_share, 4)},
        "ours_limiter": ours,
        "ours_verdict": diag.get("verdict", ""),
        "ncu_limiter": theirs,
        "ncu_limiters_by_launch": sorted(weight),
        "ncu_flagged": named,
        "agree": agree,
        "why": None if agree else difference(k, diag, theirs, deciding, sms),
        "ours_limiter_flagged_by_ncu": any(same(ours, n) for n in named),
        "ncu_rule": ({"rule": deciding["rule"], "speedup": deciding["speedup"],
                      "text": deciding["text"]} if deciding else None),
        "ncu_messages": [{"rule": m["rule"], "category": m["category"], "speedup": m["speedup"],
                          "speedup_type": m["speedup_type"], "text": m["text"][:300]}
                         for m in sorted(longest["messages"], key=lambda m: -m["speedup"])
                         if m["type"] in ("OPT", "WRN")],
    }


def markdown(doc):
    s = doc["summary"]
    lines = [f"# roofkit's diagnosis vs Nsight Compute's rules ({doc['device']})", "",
             f"{doc['date']}, revision {doc['git_revision']}. Command: `{doc['command']}`.", "",
             *([doc["note"], ""] if doc.get("note") else []),
             f"Kernels with at least 1% of an application's GPU time: {s['rows']}; the same main "
             f"limiter: {s['agree']} ({s['agree_pct']:.0f}%); roofkit's limiter among ncu's "
             f"flagged causes: {s['flagged']}. Registers per thread: {s['registers_equal']} of "
             f"{s['registers_compared']} launches equal to ncu's launch__registers_per_thread, "
             f"{s['registers_nonzero']} non-zero.", "",
             f"Disagreements by the tool the evidence supports: roofkit {s['right']['roofkit']}, "
             f"ncu {s['right']['ncu']}, neither {s['right'].get('neither', 0)}, open "
             f"{s['right']['open']} (column \"why\").", "",
             "| app | kernel | share (ours / ncu) | launches | roofkit | ncu | agree | ncu's "
             "deciding rule | why (who is right) |", "|---|---|---|---|---|---|---|---|---|"]
    for r in doc["rows"]:
        rule = r["ncu_rule"]
        gain = f" (est. speedup {rule['speedup']:.0f}%)" if rule and rule["speedup"] else ""
        rule_text = f"{rule['rule']}{gain}: {rule['text'][:140]}" if rule else ""
        w = r.get("why")
        why_text = f"{w['right']}: {w['class']}; {w['text']}" if w else ""
        lines.append("| {} | `{}` | {:.1f}% / {:.1f}% | {} | {} | {} | {} | {} | {} |".format(
            r["app"], r["display_name"].replace("|", "\\|"), 100 * r["time_share"]["ours"],
            100 * r["time_share"]["ncu"], r["launches"], r["ours_limiter"], r["ncu_limiter"],
            "yes" if r["agree"] else "**no**", rule_text.replace("|", "\\|"),
            why_text.replace("|", "\\|")))
    lines += ["", "Matching, ncu's main limiter and the mapping of its rules: "
              "validation/scripts/diagnosis_vs_ncu.py."]
    for app, a in doc["apps"].items():
        if "missing" in a:
            lines.append(f"- {app}: not compared, missing {', '.join(a['missing'])}; steps: " +
                         steps_text(a.get("steps", {})))
            continue
        lines.append(f"- {app}: {a['launches']['matched']} launches matched of "
                     f"{a['launches']['ours']} (roofkit) and {a['launches']['ncu']} (ncu); "
                     f"{a['launches']['shape_mismatch_count']} shape mismatches; "
                     f"{a['registers']['ours_zero_all_launches']} of roofkit's profiled "
                     "launches with 0 registers; steps: " + steps_text(a.get("steps", {})))
    return "\n".join(lines) + "\n"


def steps_text(steps):
    """'plain rc 0 in 3.1 s, ncu TIMED OUT after 300 s, ...'."""
    def one(name, st):
        if st.get("timed_out"):
            return f"{name} TIMED OUT after {st['limit_s']} s"
        if st.get("rc") == "skipped":
            return f"{name} skipped (time budget spent)"
        return f"{name} rc {st['rc']} in {st['s']:.1f} s"
    return ", ".join(one(name, st) for name, st in steps.items()) or "not recorded"


def gpu_slug(device):
    m = re.search(r"\b([A-Z]{1,2}\d{2,3}[A-Z]?)\b", device or "")
    return m.group(1).lower() if m else "gpu"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("dirs", nargs="+", metavar="LOGDIR... OUTDIR",
                   help="log directories (several: the applications of several runs), then "
                        "the output directory")
    p.add_argument("--gpu", help="file name suffix (default: from the device name)")
    p.add_argument("--apps", help="comma-separated (default: every APP.json with an "
                                  "APP-details.csv in the log directories)")
    p.add_argument("--note", help="a note for the JSON (how the logs were made)")
    p.add_argument("--expect", help="summary counts or ncu limiters to check, e.g. "
                   "rows=3,agree=2,ncu:APP/DISPLAY_NAME=bank_conflicts")
    a = p.parse_args()
    if len(a.dirs) < 2:
        p.error("give at least one LOGDIR and the OUTDIR")
    logs, a.out = a.dirs[:-1], a.dirs[-1]
    prov = json.loads(read(os.path.join(logs[0], "provenance.json")) or "{}")
    steps, where = {}, {}
    for log in logs:
        steps.update(json.loads(read(os.path.join(log, "steps.json")) or "{}"))
        for f in sorted(os.listdir(log)):
            if f.endswith(".json") and os.path.exists(os.path.join(log, f[:-5] + "-details.csv")):
                where[f[:-5]] = log  # a later directory's run of an application wins
    apps = a.apps.split(",") if a.apps else sorted(where)
    rows, per_app = [], {}
    regs = {"compared": 0, "equal": 0, "nonzero": 0, "ours_zero_all_launches": 0}
    for app in apps:
        log = where.get(app, logs[0])
        run_text = read(os.path.join(log, app + ".json"))
        details = read(os.path.join(log, app + "-details.csv"))
        if not run_text or not details:
            per_app[app] = {"missing": [f for f, t in ((app + ".json", run_text),
                                                       (app + "-details.csv", details)) if not t],
                            "steps": steps.get(app, {})}
            continue
        theirs = ncu_launches(details, read(os.path.join(log, app + "-raw.csv")))
        app_rows, app_regs, launches = compare_app(app, json.loads(run_text), theirs)
        rows += app_rows
        for k in regs:
            regs[k] += app_regs[k]
        per_app[app] = {"launches": launches, "registers": app_regs, "steps": steps.get(app, {}),
                        "rows": len(app_rows), "agree": sum(r["agree"] for r in app_rows)}
    agree = sum(r["agree"] for r in rows)
    summary = {"rows": len(rows), "agree": agree,
               "agree_pct": 100.0 * agree / len(rows) if rows else 0.0,
               "flagged": sum(r["ours_limiter_flagged_by_ncu"] for r in rows),
               "right": {who: sum(1 for r in rows if r["why"] and r["why"]["right"] == who)
                         for who in ("roofkit", "ncu", "neither", "open")},
               "registers_compared": regs["compared"], "registers_equal": regs["equal"],
               "registers_nonzero": regs["nonzero"],
               "registers_zero_any_profiled_launch": regs["ours_zero_all_launches"]}
    device = prov.get("device", "")
    doc = {"schema": "roofkit.validation/1",
           "what": "roofkit's diagnosis.limiter against Nsight Compute's main limiter from its "
                   "--set full rule results, for every kernel with at least 1% of an "
                   "application's GPU time, and registers per thread launch by launch",
           "device": device,
           "date": prov.get("date") or datetime.date.today().isoformat(),
           "git_revision": prov.get("git_revision", ""),
           "command": prov.get("command", "validation/scripts/diagnosis_vs_ncu.py " +
                               " ".join(sys.argv[1:])),
           "commands": prov.get("commands", {}),
           "rules": {"main_limiter": "see validation/scripts/diagnosis_vs_ncu.py (module doc)",
                     "min_speedup_pct": MIN_SPEEDUP, "min_time_share": SHARE},
           "summary": summary, "apps": per_app, "rows": rows}
    if a.note:
        doc["note"] = a.note
    gpu = a.gpu or gpu_slug(device)
    os.makedirs(a.out, exist_ok=True)
    base = os.path.join(a.out, f"diagnosis-vs-ncu-{gpu}")
    json.dump(doc, open(base + ".json", "w"), indent=1)
    open(base + ".md", "w").write(markdown(doc))
    print(f"diagnosis-vs-ncu: {summary['rows']} kernels, {agree} with the same main limiter "
          f"({summary['agree_pct']:.0f}%); registers {regs['equal']}/{regs['compared']} equal, "
          f"{regs['nonzero']} non-zero -> {base}.json, .md")
    if not rows:
        print("diagnosis-vs-ncu: nothing compared", file=sys.stderr)
        return 1
    if a.expect:
        bad = []
        limiters = {f"ncu:{r['app']}/{r['display_name']}": r["ncu_limiter"] for r in rows}
        for item in a.expect.split(","):
            k, v = item.split("=")
            got = limiters.get(k) if k.startswith("ncu:") else summary.get(k)
            if str(got) != v:
                bad.append(f"{k}={got} (expected {v})")
        if bad:
            print("diagnosis-vs-ncu: unexpected " + ", ".join(bad), file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

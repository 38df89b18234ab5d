#!/usr/bin/env python3
"""Tests validation/scripts/diagnosis_vs_ncu.py's account of a disagreement (difference()): each
kind of disagreement gets its class, the tool its evidence supports, and the figures it is based
on, from ncu's message text and roofkit's counters and findings. Usage: test_diagnosis_why.py"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "validation", "scripts"))
import diagnosis_vs_ncu as d  # noqa: E402

failures = []


def check(what, got, want):
    if got != want:
        failures.append(f"{what}: got {got!r}, want {want!r}")


def kernel(grid, counters=None):
    return {"launch": {"grid": grid, "block": [128, 1, 1]}, "counters": counters or {}}


def stalls(**shares):
    return {"kind": "warp_stalls", "gain": 0.4,
            "evidence": {"stall_share_" + k: v for k, v in shares.items()}}


def tail_message(full, partial, speedup=50.0):
    return {"speedup": speedup,
            "text": f"This kernel launch results in {full} full waves and a partial wave of "
                    f"{partial} thread blocks. Under the assumption of a uniform execution "
                    "duration of all thread blocks, the partial wave may account for up to 50.0%"}


# A 1.94-wave grid (2112 blocks a wave): 3% idle, under roofkit's threshold -> roofkit.
w = d.difference(kernel([4096, 1, 1]), {"limiter": "compute", "findings": []}, "tail_effect",
                 tail_message(1, 1984))
check("nearly full partial wave", (w["class"], w["right"]), ("ncu_tail_estimate", "roofkit"))
check("idle share in the text", "3% of the SM time is idle" in w["text"], True)
# 1.45 waves (396 a wave): 27% idle, a real cost that roofkit ranked lower -> open.
w = d.difference(kernel([575, 1, 1]), {"limiter": "occupancy_registers", "findings": []},
                 "tail_effect", tail_message(1, 179))
check("half-empty partial wave", (w["class"], w["right"]), ("tail_vs_other", "open"))
check("its idle share", "27% of the SM time idle" in w["text"], True)

# Excess shared wavefronts on a kernel near its roof whose warps rarely wait on shared memory.
gemm = {"limiter": "compute", "bound": {"pct_of_roof": 77},
        "findings": [stalls(selected=0.42, not_selected=0.34, short_scoreboard=0.08)]}
shared = {"speedup": 25.6, "text": "uncoalesced shared accesses"}
w = d.difference(kernel([128, 1, 1]), gemm, "bank_conflicts", shared)
check("hidden wavefronts", (w["class"], w["right"]), ("shared_wavefronts", "roofkit"))
# The same, with shared-memory waits as large as ncu's estimate -> ncu.
gemm["findings"] = [stalls(short_scoreboard=0.12, mio_throttle=0.05)]
w = d.difference(kernel([128, 1, 1]), gemm, "bank_conflicts", {"speedup": 20.4, "text": ""})
check("visible wavefronts", w["right"], "ncu")
check("no samples", d.difference(kernel([1, 1, 1]), {"limiter": "compute", "findings": []},
                                 "bank_conflicts", shared)["right"], "open")

# Uncoalesced accesses roofkit cannot see (under 16 sectors per request) -> ncu, with its figures.
counters = {"smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum": 606208,
            "smsp__sass_inst_executed_op_global_ld.sum": 65536,
            "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum": 65536,
            "smsp__sass_inst_executed_op_global_st.sum": 32768}
w = d.difference(kernel([2048, 1, 1], counters), {"limiter": "latency_hiding", "findings": []},
                 "uncoalesced_access", {"speedup": 63, "text": ""})
check("unseen width", (w["class"], w["right"]), ("uncoalesced_width", "ncu"))
check("sectors per request", "(9.2 loads, 2.0 stores)" in w["text"], True)
found = {"limiter": "launch_overhead",
         "findings": [{"kind": "uncoalesced_access", "gain": 0.47, "evidence": {}}]}
w = d.difference(kernel([2048, 1, 1], counters), found, "uncoalesced_access",
                 {"speedup": 66, "text": ""})
check("found but ranked lower", (w["class"], w["right"]), ("uncoalesced_ranked_lower", "open"))
# With the bytes asked, roofkit saw the widths and still found no excess worth a finding: open.
asked = dict(counters, **{"smsp__sass_data_bytes_mem_global_op_ld.sum": 65536 * 256,
                          "smsp__sass_data_bytes_mem_global_op_st.sum": 32768 * 128})
w = d.difference(kernel([2048, 1, 1], asked), {"limiter": "latency_hiding", "findings": []},
                 "uncoalesced_access", {"speedup": 63, "text": ""})
check("width seen", (w["class"], w["right"]), ("uncoalesced_below_threshold", "open"))
check("bytes used", "bytes used per sector (98%)" in w["text"], True)
check("per request", "loads 9.2 sectors for 256 B, stores 2.0 sectors for 128 B" in w["text"],
      True)

# More occupancy for a grid that does not fill one wave -> roofkit.
small = {"limiter": "launch_overhead",
         "findings": [{"kind": "launch_overhead", "gain": 0.6, "evidence": {"waves": 0.65}}]}
w = d.difference(kernel([1024, 1, 1]), small, "occupancy_registers", {"speedup": 25, "text": ""})
check("grid below one wave", (w["class"], w["right"]), ("grid_below_one_wave", "roofkit"))

# The same from the occupancy alone (no finding gives the waves): 128 blocks, one a SM on 132.
gemm_grid = {"limiter": "l2_bandwidth", "occupancy": {"active_blocks": 1}, "findings": []}
w = d.difference(kernel([2, 64, 1]), gemm_grid, "occupancy_registers", None, 132)
check("grid below one wave from the occupancy", (w["class"], w["right"]),
      ("grid_below_one_wave", "roofkit"))
check("its fill", "fills 97% of one wave" in w["text"], True)
check("many waves", d.difference(kernel([4096, 1, 1]), gemm_grid, "occupancy_registers", None,
                                 132)["class"], "other")

# An estimate larger than what the measured roof leaves -> roofkit.
near = {"limiter": "dram_bandwidth", "bound": {"roof": "dram", "pct_of_roof": 88}, "findings": []}
w = d.difference(kernel([4096, 1, 1]), near, "occupancy_registers", {"speedup": 25, "text": ""})
check("beyond the roof", (w["class"], w["right"]), ("beyond_the_roof", "roofkit"))
w = d.difference(kernel([4096, 1, 1]), near, "occupancy_registers", {"speedup": 15, "text": ""})
check("within the roof's headroom", w["class"] == "beyond_the_roof", False)

# A kernel the lab changed one cause at a time (radix-causes): its partial wave measured, and
# for the onesweep sort its registers too.
lab = {"SortKernel": {"tail": {575: 1.06}, "registers": [0.91, 0.97],
                      "limited": {"registers": 40, "blocks_per_sm_by_registers": 4}},
       "NormKernel": {"tail": {4096: 1.04, 3564: 1.18}},
       "HistKernel": {"banks": {"random": {"median_ms": 0.0262, "atomic_wavefronts": 1.65e6},
                                "spread": {"median_ms": 0.0248, "atomic_wavefronts": 5.2e5},
                                "one_bank": {"median_ms": 0.0228, "atomic_wavefronts": 4.1e6}}}}
d.lab_causes = lambda: lab
named = lambda name, grid: dict(kernel(grid), name=f"void ns::{name}<int>(int*)")
occ = {"limiter": "occupancy_registers", "findings": []}
w = d.difference(named("SortKernel", [575, 1, 1]), occ, "tail_effect", tail_message(1, 179))
check("both causes measured away", (w["class"], w["right"]), ("tail_vs_other", "neither"))
check("the tail measured", "runs 6% above the line" in w["text"], True)
check("the registers measured", "3% to 9% slower at every size" in w["text"], True)
lab["SortKernel"]["registers"] = [1.2, 0.97]
w = d.difference(named("SortKernel", [575, 1, 1]), occ, "tail_effect", tail_message(1, 179))
check("fewer registers helped once", w["right"], "roofkit")
w = d.difference(named("NormKernel", [4096, 1, 1]), {"limiter": "uncoalesced_access"},
                 "tail_effect", tail_message(2, 928, 33.3))
check("a measured tail under the threshold", w["right"], "roofkit")
w = d.difference(named("NormKernel", [3564, 1, 1]), {"limiter": "uncoalesced_access"},
                 "tail_effect", tail_message(2, 396, 33.3))
check("a measured tail over the threshold", w["right"], "open")
w = d.difference(named("HistKernel", [1584, 1, 1]), {"limiter": "small_grid"}, "bank_conflicts",
                 {"speedup": 47.5, "text": ""})
check("conflicts measured away", (w["class"], w["right"]), ("shared_wavefronts", "open"))
check("the banks measured", "ran 6% faster than with random keys" in w["text"] and
      "(2.5x the wavefronts) 15% faster" in w["text"], True)
w = d.difference(named("HistKernel", [1584, 1, 1]), {"limiter": "small_grid", "findings": []},
                 "bank_conflicts", {"speedup": 10, "text": ""})
check("a small estimate the lab does not refute", w["text"].startswith("measured"), False)
# The histogram over key counts at one wave: its keys stream at 3x what roofkit's bytes in
# flight allow (one load per warp) -> neither; at the rate they allow, roofkit's cause stands.
lab["HistKernel"]["sizes"] = {
    "streaming_gb_per_s": 2539.2, "fixed_ms": 0.01416, "app_keys": 4194304,
    "fixed_share_at_app_keys": 0.545,
    "rows": [{"keys": 4194304, "global_loads_per_thread": 20.69, "dram_gb_per_s": 646.5}]}
lab["HistKernel"]["stalls"] = {"reasons": {"long_scoreboard": 0.26, "drain": 0.23}}
latency = {"kind": "latency_hiding", "gain": 0.8,
           "evidence": {"bytes_in_flight": 526e3, "dram_latency_ns": 600.0}}
hist = {"limiter": "small_grid", "findings": [latency]}
w = d.difference(named("HistKernel", [1584, 1, 1]), hist, "bank_conflicts",
                 {"speedup": 47.5, "text": ""})
check("both causes measured away (histogram)", (w["class"], w["right"]),
      ("shared_wavefronts", "neither"))
check("the rates", "allow 877 GB/s" in w["text"] and "at 2539 GB/s" in w["text"], True)
check("the fixed cost", "leaves 55% of the time to a fixed cost (14.2 us" in w["text"], True)
latency["evidence"]["bytes_in_flight"] = 1.2e6  # allows 2000 GB/s: not refuted
w = d.difference(named("HistKernel", [1584, 1, 1]), hist, "bank_conflicts",
                 {"speedup": 47.5, "text": ""})
check("bytes in flight not refuted", w["right"], "open")

# Narrow stores (under roofkit's threshold) against ncu's own stall samples of the launch.
narrow = dict(asked, **{"smsp__sass_data_bytes_mem_global_op_st.sum": 32768 * 6})
lab["StoreKernel"] = {"stalls": {"by_class": {"global_store": 0.008},
                                 "reasons": {"barrier": 0.22, "wait": 0.17, "drain": 0.033}}}
waits = {"limiter": "compute", "findings": [stalls(barrier=0.22, not_selected=0.15)]}
w = d.difference(named("StoreKernel", [128, 1, 64]) | {"counters": narrow}, waits,
                 "uncoalesced_access", {"speedup": 26, "text": ""})
check("stores sampled away", (w["class"], w["right"]), ("uncoalesced_below_threshold", "roofkit"))
check("their share", "the stores hold 4% (samples at STG 0.8%" in w["text"], True)
lab["StoreKernel"]["stalls"]["reasons"]["lg_throttle"] = 0.3  # the LSU queue full: ncu
w = d.difference(named("StoreKernel", [128, 1, 64]) | {"counters": narrow}, waits,
                 "uncoalesced_access", {"speedup": 26, "text": ""})
check("stores waited on", w["right"], "ncu")
lab["StoreKernel"]["stalls"]["reasons"] = {"wait": 0.3, "barrier": 0.22}  # another top reason
w = d.difference(named("StoreKernel", [128, 1, 64]) | {"counters": narrow}, waits,
                 "uncoalesced_access", {"speedup": 26, "text": ""})
check("stores refuted, warps elsewhere", w["right"], "open")
d.lab_causes = lambda: {}

# ncu's one small-grid verdict is either of roofkit's two.
check("small grid, short kernel", d.same("launch_overhead", "small_grid"), True)
check("small grid, long kernel", d.same("tail_effect", "small_grid"), True)
check("small grid is not compute", d.same("compute", "small_grid"), False)
check("tail is not launch overhead", d.same("launch_overhead", "tail_effect"), False)

for f in failures:
    print("FAIL", f)
print(f"test_diagnosis_why: {len(failures)} failures")
sys.exit(1 if failures else 0)

#!/usr/bin/env python3
"""Tests validation/scripts/profile-compare.py's matching of our launches with ncu's: launches of
two kernels that share a base name (cuDNN's CUTLASS Kernel<...> of a convolution and of its
split-K reduction) are matched by shape, so a launch missing on one side leaves the other
unmatched instead of comparing two different kernels. Usage: test_profile_compare.py"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
COMPARE = os.path.join(HERE, "..", "..", "validation", "scripts", "profile-compare.py")
SASS = "smsp__sass_inst_executed_op_global_ld.sum"

failures = []


def check(what, got, want):
    if got != want:
        failures.append(f"{what}: got {got!r}, want {want!r}")


def ours(name, grid, loads):
    return {"name": name, "launch": {"grid": grid, "block": [128, 1, 1]}, "counters": {SASS: loads}}


def ncu_row(i, name, grid, loads):
    return (f'"{i}","1","python3","127.0.0.1","{name}","0","0","({grid[0]}, {grid[1]}, {grid[2]})",'
            f'"(128, 1, 1)","0","9.0","1","{loads}"')


conv = "cutlass__5x_cudnn::Kernel<cutlass__5x_cudnn::conv::kernel::ImplicitGemmConvolution<…>, …>"
split = "void cutlass__5x_cudnn::Kernel<cutlass__5x_cudnn::reduction::kernel::ReduceSplitK<int>>(int)"
run = {"context": {}, "profile": {"launches": [
    ours(conv, [64, 4, 1], 1000),   # ncu did not profile this one
    ours(split, [8, 1, 1], 23552),
    ours("void add_one(float*, int)", [4, 1, 1], 7)]}}
header = ('"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream",'
          f'"Grid Size","Block Size","Device","CC","Section Name","{SASS}"')
csv = "\n".join([header, ncu_row(0, "void cutlass__5x_cudnn::Kernel<reduction::ReduceSplitK<int>>",
                                 [8, 1, 1], 23552),
                 ncu_row(1, "add_one", [4, 1, 1], 8)]) + "\n"
with tempfile.TemporaryDirectory() as d:
    json.dump(run, open(os.path.join(d, "run.json"), "w"))
    open(os.path.join(d, "ncu.csv"), "w").write(csv)
    out = json.loads(subprocess.run([sys.executable, COMPARE, os.path.join(d, "run.json"),
                                     os.path.join(d, "ncu.csv")], check=True,
                                    capture_output=True, text=True).stdout)
launches = out["launches"]
check("the convolution is unmatched", launches[0]["matched"], False)
check("the reduction is matched with ncu's reduction", launches[1].get("ncu_id"), "0")
check("the reduction's count is equal", launches[1]["metrics"][SASS]["ok"], True)
check("add_one's unequal count is caught", launches[2]["metrics"][SASS]["ok"], False)
check("one count unequal in all", out["counts_unequal"], 1)
check("verdict", out["verdict"], "fail")
# The bytes a kernel's threads asked for are SASS-counted, so equal like instruction counts;
# DRAM bytes are judged within 1% or 64 KiB.
sys.path.insert(0, os.path.dirname(COMPARE))
import importlib.util  # noqa: E402
spec = importlib.util.spec_from_file_location("profile_compare", COMPARE)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
check("asked bytes are counts", module.kind("smsp__sass_data_bytes_mem_global_op_ld.sum"), "count")
check("DRAM bytes are bytes", module.kind("dram__bytes_read.sum"), "bytes")
# An export of two processes (--target-processes all) is split per GPU, in the GPUs' order.
import ncu_csv  # noqa: E402
two = "\n".join([header, ncu_row(0, "k", [1, 1, 1], 5).replace('"0","9.0"', '"1","9.0"'),
                  ncu_row(1, "k", [1, 1, 1], 6), ncu_row(2, "k", [1, 1, 1], 7)]) + "\n"
with tempfile.TemporaryDirectory() as d:
    parts = ncu_csv.split_by_gpu("==PROF== noise\n" + two, os.path.join(d, "x"))
    check("two GPUs", sorted(parts), [0, 1])
    check("GPU 0's rows first", [r["ID"] for r in ncu_csv.rows(parts[0][0])], ["1", "2"])
    check("GPU 1's row", [r[SASS] for r in ncu_csv.rows(parts[1][0])], ["5"])
    check("which", parts[1][1], "Device 1")
    check("no header", ncu_csv.split_by_gpu("no table", os.path.join(d, "y")), {})
if failures:
    print("\n".join(failures))
    sys.exit(1)
print("profile-compare matching: ok")

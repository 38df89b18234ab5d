#!/usr/bin/env python3
"""Tabulates validation/lab/checkpoint-cost.sh: CUPTI's checkpoint save, restores and free per
profiled launch of roofline-cuda profile, by the device memory the application holds, and the
copy rate the final restore implies.
Usage: checkpoint_cost_json.py DIR REVISION > out.json"""
import json
import re
import sys

PHASES = ("checkpoint_save_s", "before_s", "checkpoint_restore_s", "checkpoint_free_s")


def per_launch(records):
    for line in open(records):
        t = json.loads(line)
        if t.get("type") == "profiler_time":
            n = t["calls"] - 1  # the session's warm-up call profiles no launch
            out = {k[:-2] + "_ms": round(t[k] * 1e3 / n, 2) for k in PHASES}
            out["profiled_launches"] = int(n)
            return out
    return None


def main():
    d, revision = sys.argv[1], sys.argv[2]
    rows = []
    for f in ("0.007", "0.02", "0.05", "0.1", "0.2"):
        text = open(f"{d}/out-{f}.txt").read()
        held = float(re.search(r"big_memory: ([0-9.]+) GiB of", text).group(1))
        row = {"app": f"big_memory {f}", "held_gib": held, **per_launch(f"{d}/records-{f}.jsonl")}
        rows.append(row)
    for tag in ("0x1", "2048x1", "2048x100"):
        text = open(f"{d}/out-torch-{tag}.txt").read()
        m = re.search(r"reserved (\d+) MiB in (\d+) segments", text)
        rows.append({"app": f"torch tiny, {tag.replace('x', ' MiB more in ')} allocations",
                     "torch_reserved_mib": int(m.group(1)), "torch_segments": int(m.group(2)),
                     **per_launch(f"{d}/records-torch-{tag}.jsonl")})
    text = open(f"{d}/out-torch-ops.txt").read()
    m = re.search(r"reserved (\d+) MiB in (\d+) segments; device used (\d+) MiB", text)
    if m:  # the text line of revision 3a915bc
        reserved, used = int(m.group(1)), int(m.group(3))
    else:  # validation/lab/torch_ops_memory.py's JSON line
        line = next(l for l in text.splitlines() if l.startswith("torch_ops memory: "))
        mem = json.loads(line[len("torch_ops memory: "):])
        reserved, used = mem["reserved_bytes"] >> 20, mem["device_used_bytes"] >> 20
    rows.append({"app": "tests/apps/torch_ops.py", "torch_reserved_mib": reserved,
                 "device_used_mib_at_end": used, **per_launch(f"{d}/records-torch-ops.jsonl")})
    for libs in ("none", "cublas", "cudnn", "both"):
        try:
            text = open(f"{d}/out-libs-{libs}.txt").read()
        except FileNotFoundError:  # before revision c258569
            break
        m = re.search(r"reserved (\d+) MiB; device used (\d+) MiB", text)
        rows.append({"app": f"torch tiny after 2 GiB, libraries used first: {libs}",
                     "torch_reserved_mib": int(m.group(1)),
                     "device_used_mib_at_end": int(m.group(2)),
                     **per_launch(f"{d}/records-libs-{libs}.jsonl")})
    # Copy rate from the plain application: bytes held (plus the 200 MB flush buffer) over the
    # final restore's time, for the two largest sizes.
    for r in rows[3:5]:
        r["final_restore_tb_per_s"] = round((r["held_gib"] * 2**30 + 200e6) /
                                            (r["checkpoint_restore_ms"] * 1e-3) / 1e12, 2)
    print(json.dumps({
        "schema": "roofkit.validation/1",
        "what": ("CUPTI's checkpoint of device memory per profiled launch of roofline-cuda "
                 "profile (save, the restores before passes 1-3 together, the final restore, "
                 "free) by the memory the application holds: tests/apps/big_memory.cu with 0.5 to "
                 "15.7 GiB, a PyTorch process with a tiny tensor and with 2 GiB more in one or in "
                 "100 allocations, the PyTorch script of the walltime comparison with its "
                 "device memory read at its end under profile, and a tiny PyTorch loop (NVTX "
                 "range 'tiny', the only launches profiled) after 2 GiB allocated and after a "
                 "cuBLAS matmul, a cuDNN convolution or both had run"),
        "device": "NVIDIA H100 80GB HBM3, driver 580.159.04 (nvidia-h100-x1)",
        "date": "2026-11-26",
        "git_revision": revision,
        "command": ("OUT=... BUILD=build/gpu validation/lab/checkpoint-cost.sh; "
                    "validation/lab/checkpoint_cost_json.py OUT/checkpoint-cost REVISION"),
        "rows": rows,
    }, indent=1))


if __name__ == "__main__":
    main()

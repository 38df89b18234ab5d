#!/usr/bin/env python3
"""Runs tests/apps/torch_ops.py in this process, then prints one JSON line with the device memory
it holds at its end: PyTorch's reserved and allocated bytes and segments, and the device's used
and total bytes (what a checkpoint of the process's device memory saves then).
Usage (repository root): python3 validation/lab/torch_ops_memory.py"""
import json
import runpy
import sys

import torch

sys.argv = ["torch_ops.py"]
sys.path.insert(0, "tests/apps")
try:
    runpy.run_path("tests/apps/torch_ops.py", run_name="__main__")
except SystemExit:
    pass
free, total = torch.cuda.mem_get_info()
print("torch_ops memory: " + json.dumps({
    "reserved_bytes": torch.cuda.memory_reserved(),
    "allocated_bytes": torch.cuda.memory_allocated(),
    "segments": torch.cuda.memory_stats().get("segment.all.current"),
    "device_used_bytes": total - free,
    "device_total_bytes": total}))

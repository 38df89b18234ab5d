"""What the two training scripts (train_step.py, gpt_train.py) share: their common options,
their NVTX ranges and the kernel count behind `--count-launches` (torch.profiler; not under
another profiler: both would use CUPTI)."""
import argparse
import sys

import torch


def training_options(description, depth, depth_help, seed):
    """A parser with the options of both scripts: --steps, --warmup, --depth, --seed and
    --count-launches; each script adds its own."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--steps", type=int, default=3, help="measured steps (default 3)")
    p.add_argument("--warmup", type=int, default=2, help="steps before the measured ones")
    p.add_argument("--depth", type=int, default=depth, help=f"{depth_help} (default {depth})")
    p.add_argument("--seed", type=int, default=seed)
    p.add_argument("--count-launches", action="store_true",
                   help="count one step's kernel launches with torch.profiler and print it")
    return p


def cannot_start(name, problem=""):
    """The exit code of a script that cannot run, after saying why on stderr: 2 when `problem`
    (the options' valid ranges) is not empty, 77 without a CUDA device; None when it can run."""
    if problem:
        print(f"{name}: {problem}", file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print(f"{name}: no CUDA device", file=sys.stderr)
        return 77
    return None


def in_range(name, work):
    """Runs `work()` inside an NVTX push/pop range `name` on the calling thread."""
    torch.cuda.nvtx.range_push(name)
    try:
        return work()
    finally:
        torch.cuda.nvtx.range_pop()


def kernel_launches(work):
    """Runs `work()` once under torch.profiler and returns how many kernels it launched (copies
    and memsets aside)."""
    from torch.profiler import ProfilerActivity, profile
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        work()
        torch.cuda.synchronize()
    kernels = [e for e in prof.events() if str(e.device_type).endswith("CUDA")
               and not e.name.startswith(("Memcpy", "Memset"))]
    return len(kernels)

"""Kernels whose DRAM bytes are known before they run, in a plain process or beside NCCL, for
known-writes.sh (issue 40: whose DRAM writes are right where ncu's and ours part with NCCL in
the process).

Between cudaProfilerStart and cudaProfilerStop, on fresh buffers that no earlier work touched
since a flush-sized sweep, each of these three times:
  fill N MiB   t.fill_(1.5) on a float32 tensor: writes N MiB, reads nothing
  scale N MiB  torch.mul(src, 2, out=dst): reads N MiB, writes N MiB (a kernel, where copy_
               would be a cudaMemcpyAsync)
  sum  N MiB   src.sum(): reads N MiB, writes one float (one 32-byte sector; a grid that
               reduces across blocks adds its blocks' partial sums)
Prints one JSON line: the launches in order, each with its expected read and write bytes.

--mode plain: no process group; --mode nccl: a one-rank NCCL process group, used once by an
all-reduce before the region; --mode ddp: that and a small model wrapped in
DistributedDataParallel, trained one step before the region. Run the last two under torchrun.
"""
import argparse
import json
import os

import torch
import torch.distributed as dist

MIB = 1 << 20
SECTOR = 32


def set_up(mode):
    """The NCCL state of `mode`, made and used before the region."""
    if mode == "plain":
        return
    dist.init_process_group("nccl")
    t = torch.ones(1 << 20, device="cuda")
    dist.all_reduce(t)
    if mode == "ddp":
        from torch.nn.parallel import DistributedDataParallel as DDP
        model = DDP(torch.nn.Linear(1024, 1024).cuda(), device_ids=[torch.cuda.current_device()])
        model(torch.randn(64, 1024, device="cuda")).sum().backward()
    torch.cuda.synchronize()


def launches(sizes):
    """(label, run, read bytes, write bytes) for each launch of the region, in order."""
    out = []
    for mib in sizes:
        n = mib * MIB // 4
        src = torch.rand(n, device="cuda")
        for _ in range(3):
            dst = torch.empty(n, device="cuda")
            out.append((f"fill {mib} MiB", lambda d=dst: d.fill_(1.5), 0, mib * MIB))
        for _ in range(3):
            dst = torch.empty(n, device="cuda")
            out.append((f"scale {mib} MiB", lambda d=dst, s=src: torch.mul(s, 2.0, out=d),
                        mib * MIB, mib * MIB))
        for _ in range(3):
            out.append((f"sum {mib} MiB", lambda s=src: s.sum(), mib * MIB, SECTOR))
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--mode", choices=("plain", "nccl", "ddp"), default="plain")
    p.add_argument("--sizes", default="8,64,256", help="MiB per buffer, comma-separated")
    a = p.parse_args()
    torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", "0")))
    set_up(a.mode)
    plan = launches([int(s) for s in a.sizes.split(",")])
    sweep = torch.empty(512 * MIB, dtype=torch.uint8, device="cuda")
    sweep.fill_(1)  # the buffers' first writes out of the L2 before the region
    torch.cuda.synchronize()
    torch.cuda.profiler.start()
    for _, run, _, _ in plan:
        run()
    torch.cuda.synchronize()
    torch.cuda.profiler.stop()
    print(json.dumps({"mode": a.mode, "launches": [
        {"label": label, "read_bytes": r, "write_bytes": w} for label, _, r, w in plan]}))
    if a.mode != "plain":
        dist.destroy_process_group()


if __name__ == "__main__":
    main()

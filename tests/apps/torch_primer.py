"""What the PyTorch test applications share: the NVTX range "primer" that a comparison with
Nsight Compute profiles first, and running a step inside an NVTX range."""
import torch


def primer(dev="cuda"):
    """NVTX range "primer": two sums over 256 MiB, each reading five times the H100's L2 and
    writing 4 bytes. Dirty lines that a profiler leaves in the L2 before its first pass show up as
    the first sum's DRAM writes, and ncu counts about 2 MB more on its first profiled launch: the
    primer takes them. The 256 MiB are given back, so that a replaying profiler saves less."""
    big = torch.ones(64 << 20, device=dev)
    torch.cuda.synchronize()
    in_range("primer", lambda: (big.sum(), big.sum()))
    del big
    torch.cuda.empty_cache()


def in_range(name, step):
    """Runs `step` inside the NVTX range `name`, synchronised on both sides; returns its result."""
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_push(name)
    out = step()
    torch.cuda.nvtx.range_pop()
    torch.cuda.synchronize()
    return out

"""Kernel launches of one piece of work, counted by torch.profiler (for the applications'
`--count-launches`; not under another profiler: both would use CUPTI)."""
import torch


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

"""What happens when the profiled application loads its own CUPTI: torch.profiler (Kineto)
subscribes to CUPTI for its activity trace while roofkit's injection library holds the
subscription."""
import sys

import torch
from torch.profiler import ProfilerActivity, profile


def main():
    x = torch.randn(2048, 2048, device="cuda")
    y = x @ x
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        y = x @ x
        y = torch.relu(y)
        torch.cuda.synchronize()
    events = [e for e in prof.key_averages()
              if getattr(e, "device_time_total", getattr(e, "cuda_time_total", 0)) > 0]
    print(f"torch_own_cupti: kineto saw {len(events)} GPU ops; result {y.sum().item():.3e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

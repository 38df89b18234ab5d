"""DDP training steps of our own for the multi-GPU checks (issue 40).

An MLP of large Linear layers (default 4 x 8192x8192, bf16 autocast off: fp32 weights, 1 GiB of
gradients per step) trained with DistributedDataParallel over NCCL, so that the gradients'
all-reduce is a visible share of each step. The last step runs between cudaProfilerStart and
cudaProfilerStop, so that profilers with --profile-from-start off take that step alone.
Deterministic data and weights; prints one JSON line per rank at the end with the step times,
the losses and weight and gradient sums, so that runs under a profiler can be checked against a
plain run.

Run: torchrun --nproc_per_node 2 validation/apps/ddp_train.py [--steps 6] [--width 8192]
--no-ddp trains the same model in one plain process (no process group, no NCCL, no DDP hooks):
the same compute kernels, for telling what NCCL's presence changes; --pad-mb N takes N MiB of
device memory before the model, which moves where its buffers lie.
"""
import argparse
import json
import os
import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=6)
    p.add_argument("--width", type=int, default=8192)
    p.add_argument("--layers", type=int, default=4)
    p.add_argument("--batch", type=int, default=1024)
    p.add_argument("--no-ddp", action="store_true", help="one process, no NCCL")
    p.add_argument("--pad-mb", type=int, default=0,
                   help="MiB of device memory taken first, so that the buffers lie elsewhere")
    a = p.parse_args()
    local = int(os.environ.get("LOCAL_RANK", "0"))
    torch.cuda.set_device(local)
    pad = torch.empty(a.pad_mb << 20, dtype=torch.uint8, device="cuda") if a.pad_mb else None
    if not a.no_ddp:
        dist.init_process_group("nccl")
    rank = 0 if a.no_ddp else dist.get_rank()
    torch.manual_seed(0)
    layers = []
    for _ in range(a.layers):
        layers += [torch.nn.Linear(a.width, a.width), torch.nn.ReLU()]
    model = torch.nn.Sequential(*layers).cuda()
    ddp = model if a.no_ddp else DDP(model, device_ids=[local], bucket_cap_mb=256)
    opt = torch.optim.SGD(ddp.parameters(), lr=1e-4)
    g = torch.Generator(device="cuda").manual_seed(1 + rank)
    x = torch.randn(a.batch, a.width, device="cuda", generator=g)
    y = torch.randn(a.batch, a.width, device="cuda", generator=g)
    losses = []
    times = []
    for step in range(a.steps):
        last = step == a.steps - 1
        torch.cuda.synchronize()
        if last:  # the profiled step: cudaProfilerStart/Stop, process-wide (autograd's threads too)
            torch.cuda.profiler.start()
        t0 = time.perf_counter()
        opt.zero_grad(set_to_none=True)
        loss = torch.nn.functional.mse_loss(ddp(x), y)
        loss.backward()  # the gradients' all-reduce overlaps the backward pass
        opt.step()
        torch.cuda.synchronize()
        if last:
            torch.cuda.profiler.stop()
        times.append(time.perf_counter() - t0)
        losses.append(loss.item())
    params = sum(p.numel() for p in model.parameters())
    print(json.dumps({"rank": rank, "world_size": 1 if a.no_ddp else dist.get_world_size(),
                      "steps": a.steps,
                      "step_s": times, "losses": losses,
                      "gradient_bytes": params * 4,
                      "weights_checksum": float(sum(p.double().sum() for p in model.parameters())),
                      # per parameter, to tell where a run's weights part from another's: the
                      # weights after the last step and that step's all-reduced gradients
                      "lr": opt.param_groups[0]["lr"],
                      "param_sums": [float(p.double().sum()) for p in model.parameters()],
                      "grad_sums": [float(p.grad.double().sum()) for p in model.parameters()]}),
          flush=True)
    if not a.no_ddp:
        dist.destroy_process_group()
    del pad


if __name__ == "__main__":
    main()

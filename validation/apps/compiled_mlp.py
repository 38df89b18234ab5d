#!/usr/bin/env python3
"""A torch.compile'd model for `roofline-cuda profile` and Nsight Compute (issue 37): a
residual MLP (RMS norm, Linear, SiLU-gated Linear, Linear, residual; DEPTH blocks) on a batch
of token vectors, fp32, compiled with Inductor in the default mode (no CUDA graphs, no
max-autotune). Inductor fuses the norms, gates and residuals into Triton kernels, which it
loads at run time and launches through the driver API; the GEMMs stay with cuBLAS.

The compiled model is called `--warmup` times (default 2: the first call compiles, and a
Triton kernel with several configurations benchmarks them on its first launches) before
cudaProfilerStart, then `--iterations` times (default 3, each on fresh random input, inside
the NVTX range `compiled`) before cudaProfilerStop; `--iterations 1` is the one-iteration run
for `ncu --set full`. The result of every measured call is checked against the same model in
eager mode on the same input, after the profiled region: the largest absolute difference must
stay within `--atol` (default 1e-3) times the largest absolute eager value. Inductor reorders
fp32 sums (fused reductions, a different GEMM split), which moves the last bits; a wrong kernel
moves much more. TF32 is off on both sides. Exit 0 on a correct result, 1 on a wrong one, 77
without a CUDA device."""
import argparse
import sys
import time

import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, width, hidden):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(width))
        self.up = nn.Linear(width, hidden)
        self.gate = nn.Linear(width, hidden)
        self.down = nn.Linear(hidden, width)

    def forward(self, x):
        h = x * torch.rsqrt(x.square().mean(dim=-1, keepdim=True) + 1e-6) * self.scale
        return x + self.down(nn.functional.silu(self.gate(h)) * self.up(h))


class Model(nn.Module):
    def __init__(self, width, hidden, depth):
        super().__init__()
        self.blocks = nn.Sequential(*[Block(width, hidden) for _ in range(depth)])
        self.out = nn.LayerNorm(width)

    def forward(self, x):
        return torch.softmax(self.out(self.blocks(x)), dim=-1)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--iterations", type=int, default=3, help="measured calls (default 3)")
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--tokens", type=int, default=8192)
    p.add_argument("--width", type=int, default=1024)
    p.add_argument("--depth", type=int, default=4)
    p.add_argument("--atol", type=float, default=1e-3)
    p.add_argument("--seed", type=int, default=20261128)
    args = p.parse_args()
    if args.iterations < 1 or args.warmup < 1 or args.depth < 1:
        print("compiled_mlp: --iterations, --warmup and --depth must be >= 1", file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("compiled_mlp: no CUDA device", file=sys.stderr)
        return 77
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.manual_seed(args.seed)
    model = Model(args.width, 4 * args.width, args.depth).cuda().eval()
    compiled = torch.compile(model)  # mode "default": no CUDA graphs

    def inputs(i):
        g = torch.Generator(device="cuda").manual_seed(args.seed * 1000003 + i)
        return torch.randn(args.tokens, args.width, device="cuda", generator=g)

    with torch.no_grad():
        for i in range(args.warmup):
            compiled(inputs(i))
        xs = [inputs(args.warmup + i) for i in range(args.iterations)]
        torch.cuda.synchronize()
        torch.cuda.profiler.start()
        t0 = time.perf_counter()
        outs = []
        for x in xs:
            torch.cuda.nvtx.range_push("compiled")
            outs.append(compiled(x))
            torch.cuda.nvtx.range_pop()
        torch.cuda.synchronize()
        elapsed = time.perf_counter() - t0
        torch.cuda.profiler.stop()
        worst = 0.0
        for x, out in zip(xs, outs):
            ref = model(x)
            worst = max(worst, ((out - ref).abs().max() / ref.abs().max()).item())
    ok = worst <= args.atol
    print(f"compiled_mlp: {args.depth} blocks, {args.tokens}x{args.width} fp32, "
          f"{args.iterations} call(s) in {elapsed * 1e3:.1f} ms; compiled vs eager: largest "
          f"difference {worst:.2e} of the largest value (bound {args.atol}) "
          f"{'correct' if ok else 'WRONG'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

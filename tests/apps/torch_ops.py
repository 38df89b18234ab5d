"""A small PyTorch script for `roofline-cuda profile` and the Nsight Compute import fixture:
a BF16 and an FP32 matmul, a softmax, a layer norm and a convolution, each run once after one
warm-up pass (so cuBLAS/cuDNN choose their kernels first), inside an NVTX range "ops", after
a primer (NVTX range "primer") that reference runs profile first. With TORCH_OPS_FLUSH=1 in the
environment the script empties the L2 itself before each op (a sum over 200 MB of zeros, outside
the range "ops", which then encloses each op alone): Nsight Compute's cache control leaves some
dirty lines of the work before a kernel in the L2 (docs/metrics.md), and this gives both tools
a kernel that starts from an L2 without them. With TORCH_OPS_PAD_MB=N the script first allocates
N MiB that it never touches, which moves every later buffer in device memory
(validation/lab/torch-placement.sh)."""
import os
import sys

import torch
from torch_primer import primer


def ops(a16, b16, a32, b32, x, ln, conv, img, flush=None):
    steps = [lambda: a16 @ b16, lambda: a32 @ b32, lambda: torch.softmax(x, dim=-1),
             lambda: ln(x), lambda: conv(img)]
    if flush is None:
        return tuple(step() for step in steps)
    out = []
    for step in steps:
        flush()
        torch.cuda.nvtx.range_push("ops")
        out.append(step())
        torch.cuda.nvtx.range_pop()
    return tuple(out)


def main():
    if not torch.cuda.is_available():
        print("torch_ops: no CUDA device", file=sys.stderr)
        return 77
    torch.manual_seed(0)
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    dev = "cuda"
    pad = torch.empty(int(os.environ.get("TORCH_OPS_PAD_MB", "0")) << 20, dtype=torch.uint8,
                      device=dev)
    n = 4096
    a16 = torch.randn(n, n, device=dev, dtype=torch.bfloat16)
    b16 = torch.randn(n, n, device=dev, dtype=torch.bfloat16)
    a32 = torch.randn(n, n, device=dev)
    b32 = torch.randn(n, n, device=dev)
    x = torch.randn(8192, 4096, device=dev)
    ln = torch.nn.LayerNorm(4096, device=dev)
    conv = torch.nn.Conv2d(64, 128, 3, padding=1, device=dev)
    img = torch.randn(32, 64, 56, 56, device=dev)
    with torch.no_grad():
        ops(a16, b16, a32, b32, x, ln, conv, img)  # warm-up: library heuristics, module loads
        primer(dev)
        if os.environ.get("TORCH_OPS_FLUSH") == "1":
            zeros = torch.zeros(50 << 20, device=dev)  # 200 MB, four times the H100's L2
            c16, c32, s, y, z = ops(a16, b16, a32, b32, x, ln, conv, img, flush=zeros.sum)
        else:
            torch.cuda.nvtx.range_push("ops")
            c16, c32, s, y, z = ops(a16, b16, a32, b32, x, ln, conv, img)
            torch.cuda.nvtx.range_pop()
        torch.cuda.synchronize()
    # The results must not change under a profiler that replays launches.
    ref16 = (a16.float() @ b16.float())
    err16 = ((c16.float() - ref16).abs().max() / ref16.abs().max()).item()
    err32 = ((c32 - a32.double().mm(b32.double()).float()).abs().max()).item()
    rows = s.sum(dim=-1)
    # No commas: ncu writes the program's output into its CSV stream.
    ok = bool(torch.allclose(rows, torch.ones_like(rows), atol=1e-4))
    print(f"torch_ops: bf16 rel err {err16:.2e} | fp32 abs err {err32:.2e} | "
          f"softmax rows sum to 1: {ok} | layer norm mean {y.mean().item():.1e} | "
          f"conv out {'x'.join(str(d) for d in z.shape)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""torch.compile under `roofline-cuda profile`: Inductor generates Triton kernels, loads them
as modules at run time and launches them through the driver API, after compiling them in worker
processes. A fused pointwise + reduction function is compiled (default mode), warmed up, then
run once inside the NVTX range "compiled"; with "graphs" as argument it is also compiled with
mode="reduce-overhead", whose CUDA graph is captured and replayed (NVTX range "graphed").
Results are checked against eager PyTorch."""
import sys

import torch
from torch_primer import in_range, primer


def fused(x, w, b):
    y = torch.nn.functional.gelu(x * w + b)
    return y / (y.square().mean(dim=-1, keepdim=True) + 1e-5).sqrt()


def main():
    if not torch.cuda.is_available():
        print("torch_compiled: no CUDA device", file=sys.stderr)
        return 77
    graphs = len(sys.argv) > 1 and sys.argv[1] == "graphs"
    torch.manual_seed(0)
    x = torch.randn(8192, 4096, device="cuda")
    w = torch.randn(4096, device="cuda")
    b = torch.randn(4096, device="cuda")
    ref = fused(x, w, b)
    compiled = torch.compile(fused)
    compiled(x, w, b)  # compiles: Triton kernels built and loaded
    primer()
    out = in_range("compiled", lambda: compiled(x, w, b))
    err = (out - ref).abs().max().item()
    ok = err < 1e-3
    line = f"torch_compiled: default mode max abs err {err:.1e}"
    if graphs:
        g = torch.compile(fused, mode="reduce-overhead")
        for _ in range(3):  # warm-up, capture, first replay
            g(x, w, b)
        out2 = in_range("graphed", lambda: g(x, w, b))
        err2 = (out2 - ref).abs().max().item()
        ok = ok and err2 < 1e-3
        line += f" | reduce-overhead max abs err {err2:.1e}"
    print(line + f" | results {'correct' if ok else 'WRONG'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

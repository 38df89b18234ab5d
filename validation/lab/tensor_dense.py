"""Dense tensor GEMMs on the paths whose family counters are costly to program on GH100 (HGMMA
FP16, QGMMA FP8, IGMMA INT8) and BF16 for comparison: for checking that a family's
`_sparsity_off` counter equals the family's own counter on dense work (validation/lab/pass-cost.sh)."""
import sys

import torch


def main():
    if not torch.cuda.is_available():
        print("tensor_dense: no CUDA device", file=sys.stderr)
        return 77
    torch.manual_seed(0)
    n = 4096
    dev = "cuda"
    a = torch.randn(n, n, device=dev, dtype=torch.float16)
    b = torch.randn(n, n, device=dev, dtype=torch.float16)
    ab = a.to(torch.bfloat16)
    bb = b.to(torch.bfloat16)
    one = torch.tensor(1.0, device=dev)
    a8 = a.to(torch.float8_e4m3fn)
    b8 = b.to(torch.float8_e4m3fn).t().contiguous().t()  # column-major, as _scaled_mm wants
    ai = torch.randint(-8, 8, (n, n), device=dev, dtype=torch.int8)
    bi = torch.randint(-8, 8, (n, n), device=dev, dtype=torch.int8).t().contiguous().t()
    results = {}
    for name, f in (("fp16", lambda: a @ b), ("bf16", lambda: ab @ bb),
                    ("fp8", lambda: torch._scaled_mm(a8, b8, scale_a=one, scale_b=one,
                                                     out_dtype=torch.bfloat16)),
                    ("int8", lambda: torch._int_mm(ai, bi))):
        try:
            results[name] = f()
            torch.cuda.synchronize()
        except Exception as e:  # a path this torch build lacks is reported, not fatal
            print(f"tensor_dense: {name} failed: {e}", file=sys.stderr)
    print("tensor_dense: " + " | ".join(f"{k} {tuple(v.shape)}" for k, v in results.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""PyTorch's layer norm as the training step runs it (float32, 256 channels; 4,096 rows there),
over 3,168 to 4,752 rows: 2 to 3 waves of its 1,584-block waves on an H200. radix-causes.sh runs
it under Nsight Compute, which times each launch. Each size's output is checked against a float64
layer norm on the host (fresh random data). Prints one JSON object: the sizes in launch order."""
import json
import sys

import torch

CHANNELS = 256
ROWS = (3168, 3564, 3960, 4096, 4356, 4752)
REPS = 7


def main():
    if not torch.cuda.is_available():
        print("layer_norm_tail: no CUDA device", file=sys.stderr)
        return 77
    norm = torch.nn.LayerNorm(CHANNELS).cuda()
    with torch.no_grad():
        norm.weight.uniform_(0.5, 1.5)
        norm.bias.uniform_(-0.5, 0.5)
    runs, worst = [], 0.0
    with torch.no_grad():
        for rows in ROWS:
            x = torch.randn(rows, CHANNELS, device="cuda")
            for _ in range(REPS):
                y = norm(x)
            torch.cuda.synchronize()
            ref = torch.nn.functional.layer_norm(x.double().cpu(), (CHANNELS,),
                                                 norm.weight.double().cpu(),
                                                 norm.bias.double().cpu(), norm.eps)
            err = (y.double().cpu() - ref).abs().max().item()
            worst = max(worst, err)
            runs.append({"rows": rows, "launches": REPS, "max_abs_error": err})
    ok = worst < 1e-4
    print(json.dumps({"channels": CHANNELS, "runs": runs, "all_checked": ok}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

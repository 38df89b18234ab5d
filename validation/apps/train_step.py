#!/usr/bin/env python3
"""A training step of an MLP-Mixer on random images, for `roofline-cuda profile` and Nsight
Compute (issues 37 and 39): bf16 autocast, forward, backward (PyTorch runs it on its autograd
thread, not the thread that calls backward()), fused AdamW. A model unlike the test
applications (tests/apps/torch_*.py) and unlike a GPT: patch embedding by a strided
convolution, then DEPTH mixer blocks (layer norm, token-mixing MLP across the patches through
a transpose, layer norm, channel MLP, each with a residual), mean pooling and a linear head.

Each mixer block launches some 60 kernels per step (autocast casts, four GEMMs, two layer
norms, two GELUs and two residual adds forward; about twice as many backward), so the default
depth of 12 gives well over 500 launches per step. `--count-launches` counts one step's kernels
with torch.profiler and prints the count (not under another profiler: both would use CUPTI).

Every step draws a fresh batch of random images and labels from a generator seeded with
`--seed` plus the step number, so two runs launch the same kernels on the same data. NVTX
ranges: `step` around each measured step, inside it `forward`, `backward`, `optimizer`
(torch.cuda.nvtx, pushed on the calling thread). The `--warmup` steps run before
cudaProfilerStart (torch.cuda.profiler.start()) and the `--steps` measured steps between it and
cudaProfilerStop, so a profiler run with `--profile-from-start off` sees the measured steps
only: `--steps 1` is the one-iteration run for `ncu --set full`.

Prints the loss of every step and exits 1 when one is not finite, 77 without a CUDA device.
usage: train_step.py [--steps N] [--warmup N] [--depth N] [--batch N] [--seed N]
                     [--count-launches]"""
import math
import sys
import time

import torch
from torch import nn

from training_common import cannot_start, in_range, kernel_launches, training_options


class MixerBlock(nn.Module):
    def __init__(self, tokens, channels, token_hidden, channel_hidden):
        super().__init__()
        self.norm1 = nn.LayerNorm(channels)
        self.token_mlp = nn.Sequential(nn.Linear(tokens, token_hidden), nn.GELU(),
                                       nn.Linear(token_hidden, tokens))
        self.norm2 = nn.LayerNorm(channels)
        self.channel_mlp = nn.Sequential(nn.Linear(channels, channel_hidden), nn.GELU(),
                                         nn.Linear(channel_hidden, channels))

    def forward(self, x):  # x: (batch, tokens, channels)
        y = self.norm1(x).transpose(1, 2)  # (batch, channels, tokens): mix across patches
        x = x + self.token_mlp(y).transpose(1, 2)
        return x + self.channel_mlp(self.norm2(x))


class Mixer(nn.Module):
    def __init__(self, image=64, patch=8, channels=256, depth=12, classes=100):
        super().__init__()
        tokens = (image // patch) ** 2
        self.embed = nn.Conv2d(3, channels, kernel_size=patch, stride=patch)
        self.blocks = nn.Sequential(
            *[MixerBlock(tokens, channels, tokens * 2, channels * 4) for _ in range(depth)])
        self.norm = nn.LayerNorm(channels)
        self.head = nn.Linear(channels, classes)

    def forward(self, images):
        x = self.embed(images).flatten(2).transpose(1, 2)  # (batch, tokens, channels)
        x = self.blocks(x)
        return self.head(self.norm(x).mean(dim=1))


def batch(args, step, dev):
    g = torch.Generator(device=dev)
    g.manual_seed(args.seed * 1000003 + step)
    images = torch.randn(args.batch, 3, args.image, args.image, device=dev, generator=g)
    labels = torch.randint(0, args.classes, (args.batch,), device=dev, generator=g)
    return images, labels


def train_step(model, opt, images, labels):
    """One step; returns the loss as a tensor (no synchronisation inside)."""
    def forward():
        with torch.autocast("cuda", dtype=torch.bfloat16):
            return nn.functional.cross_entropy(model(images), labels)

    def optimizer():
        opt.step()
        opt.zero_grad(set_to_none=True)

    loss = in_range("forward", forward)
    in_range("backward", loss.backward)  # the kernels come from the autograd thread
    in_range("optimizer", optimizer)
    return loss.detach()


def count_launches(model, opt, args, dev):
    images, labels = batch(args, 10**6, dev)
    return kernel_launches(lambda: train_step(model, opt, images, labels))


def main():
    p = training_options(__doc__.split("\n\n")[0], 12, "mixer blocks", 20261128)
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--image", type=int, default=64)
    p.add_argument("--classes", type=int, default=100)
    args = p.parse_args()
    bad = args.steps < 1 or args.warmup < 0 or args.depth < 1 or args.batch < 1
    code = cannot_start("train_step",
                        "--steps, --depth and --batch must be >= 1, --warmup >= 0" if bad else "")
    if code is not None:
        return code
    dev = "cuda"
    torch.manual_seed(args.seed)
    torch.backends.cuda.matmul.allow_tf32 = False
    model = Mixer(image=args.image, depth=args.depth, classes=args.classes).to(dev)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.05, fused=True)
    params = sum(p.numel() for p in model.parameters())

    for step in range(args.warmup):
        loss = train_step(model, opt, *batch(args, step, dev))
        if not math.isfinite(loss.item()):
            print(f"train_step: warm-up step {step} loss {loss.item()} is not finite")
            return 1
    if args.count_launches:
        print(f"train_step: one step launches {count_launches(model, opt, args, dev)} kernels")
    torch.cuda.synchronize()
    torch.cuda.profiler.start()
    t0 = time.perf_counter()
    losses = []
    for step in range(args.warmup, args.warmup + args.steps):
        images, labels = batch(args, step, dev)
        losses.append(in_range("step", lambda: train_step(model, opt, images, labels)))
    torch.cuda.synchronize()
    elapsed = time.perf_counter() - t0
    torch.cuda.profiler.stop()

    values = [l.item() for l in losses]
    ok = all(math.isfinite(v) for v in values)
    print(f"train_step: MLP-Mixer depth {args.depth}, {params / 1e6:.2f} M parameters, batch "
          f"{args.batch}, {args.steps} step(s) in {elapsed * 1e3:.1f} ms, losses "
          + " ".join(f"{v:.4f}" for v in values) + ("" if ok else " NOT FINITE"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

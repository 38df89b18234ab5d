#!/usr/bin/env python3
"""A CNN training step for `roofline-cuda profile` and Nsight Compute (issue 39): torchvision's
ResNet-50 trained with fp16 autocast and a GradScaler, SGD with Nesterov momentum and weight
decay, batch norms in training mode, channels_last, cuDNN choosing its algorithms
(`torch.backends.cudnn.benchmark`). Unlike the two other training scripts (an MLP-Mixer in
bf16 with fused AdamW, a GPT in fp16 with foreach AdamW), its time goes to cuDNN's
convolutions, forward and backward (data and filter), and to the batch norms.

Each step draws a fresh batch from a generator seeded with `--seed` plus the step number, so
two runs launch the same kernels on the same data: an image is its label's fixed pattern (one
per class, drawn once from the seed) plus as much noise. One step launches some 640 kernels
(`--count-launches` counts them with torch.profiler; not under another profiler: both would use
CUPTI).

NVTX ranges: `step` around each measured step, inside it `forward`, `backward` (whose kernels
come from PyTorch's autograd thread) and `optimizer` (the scaler's unscale and inf check, which
reads a flag back to the host, SGD, the scale update). The `--warmup` steps run before
cudaProfilerStart and the `--steps` measured steps between it and cudaProfilerStop; `--steps 1`
is the one-iteration run for `ncu --set full`.

Check: before the warm-up, the first batch's logits from the GPU (fp16 autocast, training
mode) against the same network in fp32 on the CPU, within a relative error of `--rtol` (default
0.3) in the L2 norm; the batch norms normalise every layer by the batch's own statistics, so
fp16 rounding stays near 1% while a wrong kernel gives logits unrelated to the reference (an
error near 1 or above). Then every loss finite. Exit 0 when both hold, 1 when one does not, 77
without a CUDA device. (Whether the loss falls is not checked: from random weights it first
rises over the first few dozen steps.)
usage: resnet_train.py [--steps N] [--warmup N] [--depth 18|34|50|101|152] [--batch N]
                       [--image N] [--classes N] [--lr X] [--rtol X] [--seed N]
                       [--count-launches]"""
import copy
import math
import sys
import time

import torch
import torchvision
from torch import nn

from training_common import cannot_start, in_range, kernel_launches, training_options

DEPTHS = {18: torchvision.models.resnet18, 34: torchvision.models.resnet34,
          50: torchvision.models.resnet50, 101: torchvision.models.resnet101,
          152: torchvision.models.resnet152}


def patterns(args, dev):
    """One fixed image per class, drawn from the seed."""
    g = torch.Generator(device=dev)
    g.manual_seed(args.seed)
    return torch.randn(args.classes, 3, args.image, args.image, device=dev, generator=g)


def batch(args, step, dev, pattern):
    g = torch.Generator(device=dev)
    g.manual_seed(args.seed * 1000003 + step)
    labels = torch.randint(0, args.classes, (args.batch,), device=dev, generator=g)
    noise = torch.randn(args.batch, 3, args.image, args.image, device=dev, generator=g)
    images = (pattern[labels] + noise).contiguous(memory_format=torch.channels_last)
    return images, labels


def forward_error(model, images):
    """||gpu - cpu|| / ||cpu|| of the logits of `images`: the model on the GPU under fp16
    autocast against an fp32 copy of it on the CPU, both in training mode."""
    reference = copy.deepcopy(model).float().cpu()
    with torch.no_grad():
        want = reference(images.float().cpu())
        with torch.autocast("cuda", dtype=torch.float16):
            got = model(images).float().cpu()
    return ((got - want).norm() / want.norm()).item()


class Trainer:
    def __init__(self, model, args):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, nesterov=True,
                                   weight_decay=5e-5)
        self.scaler = torch.amp.GradScaler("cuda")
        self.loss_fn = nn.CrossEntropyLoss(label_smoothing=0.1)

    def step(self, images, labels):
        """One step; returns the loss as a tensor (no synchronisation of its own)."""
        def forward():
            with torch.autocast("cuda", dtype=torch.float16):
                return self.loss_fn(self.model(images), labels)

        def optimizer():
            self.scaler.step(self.opt)
            self.scaler.update()
            self.opt.zero_grad(set_to_none=True)

        loss = in_range("forward", forward)
        in_range("backward", lambda: self.scaler.scale(loss).backward())
        in_range("optimizer", optimizer)
        return loss.detach()


def main():
    p = training_options(__doc__.split("\n\n")[0], 50, "ResNet depth: 18, 34, 50, 101 or 152",
                         20261130)
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--image", type=int, default=128)
    p.add_argument("--classes", type=int, default=100)
    p.add_argument("--lr", type=float, default=0.01)
    p.add_argument("--rtol", type=float, default=0.3)
    args = p.parse_args()
    bad = args.steps < 1 or args.warmup < 0 or args.batch < 1 or args.depth not in DEPTHS \
        or args.image < 32 or args.classes < 2
    code = cannot_start("resnet_train", "--steps and --batch must be >= 1, --warmup >= 0, "
                        f"--depth one of {sorted(DEPTHS)}, --image >= 32, --classes >= 2"
                        if bad else "")
    if code is not None:
        return code
    dev = "cuda"
    torch.manual_seed(args.seed)
    torch.backends.cudnn.benchmark = True
    model = DEPTHS[args.depth](num_classes=args.classes).to(dev, memory_format=torch.channels_last)
    model.train()
    trainer = Trainer(model, args)
    pattern = patterns(args, dev)
    params = sum(p.numel() for p in model.parameters())
    torch.set_num_threads(min(8, torch.get_num_threads()))
    error = forward_error(model, batch(args, -1, dev, pattern)[0])

    losses = [trainer.step(*batch(args, step, dev, pattern)) for step in range(args.warmup)]
    if args.count_launches:
        images, labels = batch(args, 10**6, dev, pattern)
        n = kernel_launches(lambda: trainer.step(images, labels))
        print(f"resnet_train: one step launches {n} kernels")
    torch.cuda.synchronize()
    torch.cuda.profiler.start()
    t0 = time.perf_counter()
    for step in range(args.warmup, args.warmup + args.steps):
        images, labels = batch(args, step, dev, pattern)
        losses.append(in_range("step", lambda: trainer.step(images, labels)))
    torch.cuda.synchronize()
    elapsed = time.perf_counter() - t0
    torch.cuda.profiler.stop()

    values = [l.item() for l in losses]
    finite = all(math.isfinite(v) for v in values)
    close = error <= args.rtol
    print(f"resnet_train: ResNet-{args.depth}, {params / 1e6:.2f} M parameters, batch "
          f"{args.batch} of {args.image}x{args.image}, {args.steps} measured step(s) in "
          f"{elapsed * 1e3:.1f} ms; logits against the CPU: {100 * error:.2f}% "
          f"(bound {100 * args.rtol:.0f}%){'' if close else ' WRONG'}; losses "
          + " ".join(f"{v:.4f}" for v in values) + ("" if finite else " NOT FINITE"))
    return 0 if finite and close else 1


if __name__ == "__main__":
    sys.exit(main())

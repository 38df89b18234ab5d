#!/usr/bin/env python3
"""A GPT-style language model trained on batches from a DataLoader, for `roofline-cuda profile`
and Nsight Compute (issue 39): what a user's training script does that the MLP-Mixer step
(train_step.py) does not. Worker processes build the batches on the CPU, PyTorch's pin-memory
thread pins them while the main thread launches kernels, and the batch is copied to the GPU with
non_blocking=True; causal self-attention through scaled_dot_product_attention (a fused attention
kernel); fp16 autocast with a GradScaler (its inf check makes the host wait for the GPU every
step); gradient clipping; AdamW with foreach kernels (not fused); a warm-up then cosine learning
rate; an exponential moving average of the weights updated on a second CUDA stream.

The data is a rule to learn: each sequence steps from a random start by a random stride modulo
the vocabulary, with 10% of its tokens replaced by noise, so the next token follows from the
two before it and the loss falls within a few dozen steps. Sequence i is drawn from a CPU
generator seeded with `--seed` and i, so two runs see the same batches in the same order.

NVTX ranges: `step` around each measured step, inside it `forward`, `backward` and `optimizer`
(pushed on the main thread; backward runs on PyTorch's autograd thread). The `--warmup` steps
run before cudaProfilerStart and the `--steps` measured steps between it and cudaProfilerStop.
`--count-launches` counts one step's kernels with torch.profiler (not under another profiler).

Prints the loss of every measured step. Exits 1 when a loss or the moving average is not
finite, or when over 30 steps or more the mean loss of the last five is not below 90% of the
first step's; 77 without a CUDA device.
usage: gpt_train.py [--steps N] [--warmup N] [--depth N] [--batch N] [--seq N] [--workers N]
                    [--seed N] [--count-launches]"""
import math
import sys
import time

import torch
from torch import nn
from torch.nn import functional as F

from training_common import cannot_start, in_range, kernel_launches, training_options

NOISE = 0.1


class StrideSequences(torch.utils.data.Dataset):
    def __init__(self, vocab, seq, size, seed):
        self.vocab, self.seq, self.size, self.seed = vocab, seq, size, seed

    def __len__(self):
        return self.size

    def __getitem__(self, i):
        g = torch.Generator().manual_seed(self.seed * 1000003 + i)
        start = torch.randint(0, self.vocab, (1,), generator=g)
        stride = torch.randint(1, 16, (1,), generator=g)
        x = (start + stride * torch.arange(self.seq + 1)) % self.vocab
        noisy = torch.rand(self.seq + 1, generator=g) < NOISE
        return torch.where(noisy, torch.randint(0, self.vocab, (self.seq + 1,), generator=g), x)


class Block(nn.Module):
    def __init__(self, width, heads):
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = nn.LayerNorm(width), nn.LayerNorm(width)
        self.qkv, self.proj = nn.Linear(width, 3 * width), nn.Linear(width, width)
        self.fc, self.out = nn.Linear(width, 4 * width), nn.Linear(4 * width, width)

    def forward(self, x):
        b, t, w = x.shape
        qkv = self.qkv(self.ln1(x)).view(b, t, 3, self.heads, w // self.heads)
        q, k, v = qkv.permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(y.transpose(1, 2).reshape(b, t, w))
        return x + self.out(F.gelu(self.fc(self.ln2(x)), approximate="tanh"))


class GPT(nn.Module):
    def __init__(self, vocab, seq, width, heads, depth):
        super().__init__()
        self.tokens = nn.Embedding(vocab, width)
        self.positions = nn.Parameter(torch.zeros(seq, width))
        self.blocks = nn.Sequential(*[Block(width, heads) for _ in range(depth)])
        self.norm = nn.LayerNorm(width)
        nn.init.normal_(self.positions, std=0.02)

    def forward(self, idx):
        x = self.blocks(self.tokens(idx) + self.positions[: idx.shape[1]])
        return self.norm(x) @ self.tokens.weight.t()  # the head shares the embedding


class Trainer:
    def __init__(self, model, args):
        self.model, self.args = model, args
        self.params = [p for p in model.parameters()]
        self.opt = torch.optim.AdamW(self.params, lr=args.lr, weight_decay=0.1, foreach=True)
        total = args.warmup + args.steps
        ramp = max(1, min(10, total // 5))
        def rate(s):  # warm-up, then cosine
            return min(1.0, (s + 1) / ramp) * 0.5 * (1 + math.cos(math.pi * s / total))

        self.sched = torch.optim.lr_scheduler.LambdaLR(self.opt, rate)
        self.scaler = torch.amp.GradScaler("cuda")
        self.ema = [p.detach().clone() for p in self.params]
        self.ema_stream = torch.cuda.Stream()

    def step(self, seqs):
        main = torch.cuda.current_stream()
        main.wait_stream(self.ema_stream)  # the optimizer below overwrites what the EMA reads
        idx, target = seqs[:, :-1], seqs[:, 1:]

        def forward():
            with torch.autocast("cuda", dtype=torch.float16):
                logits = self.model(idx)
                return F.cross_entropy(logits.float().flatten(0, 1), target.flatten())

        def optimizer():
            self.scaler.unscale_(self.opt)
            nn.utils.clip_grad_norm_(self.params, 1.0, foreach=True)
            self.scaler.step(self.opt)
            self.scaler.update()
            self.opt.zero_grad(set_to_none=True)
            self.sched.step()
            self.ema_stream.wait_stream(main)
            with torch.cuda.stream(self.ema_stream):
                torch._foreach_lerp_(self.ema, [p.detach() for p in self.params], 0.01)

        loss = in_range("forward", forward)
        in_range("backward", self.scaler.scale(loss).backward)
        in_range("optimizer", optimizer)
        return loss.detach()


def parse():
    p = training_options(__doc__.split("\n\n")[0], 8, "transformer blocks", 20261129)
    p.add_argument("--batch", type=int, default=16)
    p.add_argument("--seq", type=int, default=256)
    p.add_argument("--width", type=int, default=512)
    p.add_argument("--heads", type=int, default=8)
    p.add_argument("--vocab", type=int, default=4096)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--workers", type=int, default=2, help="DataLoader worker processes")
    args = p.parse_args()
    if min(args.steps, args.depth, args.batch, args.seq, args.heads) < 1 or args.warmup < 0 \
            or args.workers < 0 or args.width % args.heads:
        p.error("--steps, --depth, --batch, --seq, --heads >= 1, --warmup, --workers >= 0, "
                "--width a multiple of --heads")
    return args


def batches(args):
    total = args.warmup + args.steps + (1 if args.count_launches else 0)
    data = StrideSequences(args.vocab, args.seq, total * args.batch, args.seed)
    loader = torch.utils.data.DataLoader(data, batch_size=args.batch, num_workers=args.workers,
                                         pin_memory=True, persistent_workers=args.workers > 0)
    for seqs in loader:
        yield seqs.cuda(non_blocking=True)


def verdict(values, ema, steps):
    if not all(math.isfinite(v) for v in values):
        return "a loss is not finite"
    if not all(torch.isfinite(e).all().item() for e in ema):
        return "the moving average is not finite"
    last = sum(values[-5:]) / len(values[-5:])
    if steps >= 30 and not last < 0.9 * values[0]:
        return f"the loss did not fall: {values[0]:.4f} first, {last:.4f} over the last five"
    return ""


def main():
    args = parse()
    code = cannot_start("gpt_train")
    if code is not None:
        return code
    torch.manual_seed(args.seed)
    model = GPT(args.vocab, args.seq, args.width, args.heads, args.depth).cuda()
    trainer = Trainer(model, args)
    source = batches(args)
    values = []
    for _ in range(args.warmup):
        values.append(trainer.step(next(source)).item())
    if args.count_launches:
        n = kernel_launches(lambda: trainer.step(next(source)))
        print(f"gpt_train: one step launches {n} kernels")
    torch.cuda.synchronize()
    torch.cuda.profiler.start()
    t0 = time.perf_counter()
    losses = [in_range("step", lambda: trainer.step(next(source))) for _ in range(args.steps)]
    torch.cuda.synchronize()
    elapsed = time.perf_counter() - t0
    torch.cuda.profiler.stop()
    values += [l.item() for l in losses]
    problem = verdict(values, trainer.ema, len(values))
    n = sum(p.numel() for p in model.parameters())
    print(f"gpt_train: depth {args.depth}, {n / 1e6:.2f} M parameters, batch {args.batch} x "
          f"{args.seq}, {args.steps} step(s) in {elapsed * 1e3:.1f} ms, losses "
          + " ".join(f"{v:.4f}" for v in values[args.warmup:])
          + (f" FAILED: {problem}" if problem else ""))
    return 1 if problem else 0


if __name__ == "__main__":
    sys.exit(main())

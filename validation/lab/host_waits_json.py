#!/usr/bin/env python3
"""Tabulates validation/lab/host-waits.sh: what a profiled launch's passes cost with each scheduling
flag, and which host calls (timed by syscall_time.so) that time is spent in, per launch (41
launches less 1) and over the PyTorch script under roofline-cuda profile.
Usage: host_waits_json.py DIR REVISION > out.json"""
import json
import os
import sys

REG_OPS = 0xB0CC010A  # NVB0CC_CTRL_CMD_EXEC_REG_OPS: the profiler object's register operations
RM_CONTROL = (ord("F") << 8) | 0x2A  # the NVIDIA driver's RM control ioctl


def calls(path):
    """{(call, key): [count, seconds]} summed over the processes of one file."""
    total = {}
    for line in open(path):
        for c in json.loads(line)["calls"]:
            t = total.setdefault((c["call"], c["key"]), [0, 0.0])
            t[0] += c["count"]
            t[1] += c["s"]
    return total


def label(call, key):
    if call != "ioctl":
        return f"{call} {key}"
    if key & 0xFFFF == RM_CONTROL:
        return f"RM control {key >> 16:#x}"
    return f"ioctl {key & 0xFFFF:#06x}"


def per_pass(j, key):
    t, b, n = j["stats_total"][key], j["stats_after_first"][key], j["launches"]
    return [round((x - (b[i] if i < len(b) else 0)) * 1e3 / n, 2) for i, x in enumerate(t)]


def main():
    d, revision = sys.argv[1], sys.argv[2]
    sched = {}
    for flag in ("default", "spin", "yield", "blocking"):
        for line in open(f"{d}/sched-{flag}.jsonl"):
            j = json.loads(line)
            sched.setdefault(flag, {})[j["set"]] = {
                "ms_per_launch": round(j["wall_per_launch_s"] * 1e3, 2),
                "start_ms_by_pass": per_pass(j, "start_s_by_pass"),
                "stop_ms_by_pass": per_pass(j, "stop_s_by_pass")}
    sets = {}
    for name in ("sass", "dram", "hgmma", "bench"):
        one, many = calls(f"{d}/syscalls-{name}-1.jsonl"), calls(f"{d}/syscalls-{name}-41.jsonl")
        w1 = json.loads(open(f"{d}/preload-{name}-1.jsonl").readline())
        w41 = json.loads(open(f"{d}/preload-{name}-41.jsonl").readline())
        rows = []
        for k in set(one) | set(many):
            c = (many.get(k, [0, 0])[0] - one.get(k, [0, 0])[0]) / 40
            s = (many.get(k, [0, 0])[1] - one.get(k, [0, 0])[1]) / 40
            if c >= 1:  # every launch's calls, not a background thread's timed-out polls
                rows.append({"call": label(*k), "per_launch": round(c, 1),
                             "ms_per_launch": round(s * 1e3, 2)})
        rows.sort(key=lambda r: -r["ms_per_launch"])
        reg = next((r for r in rows if r["call"] == f"RM control {REG_OPS:#x}"), None)
        sets[name] = {"set": w41["set"], "passes": w41["passes"],
                      "ms_per_launch": round((w41["wall_s"] - w1["wall_s"]) / 40 * 1e3, 2),
                      "reg_ops_calls_per_launch": reg and reg["per_launch"],
                      "reg_ops_ms_per_launch": reg and reg["ms_per_launch"],
                      "calls_per_launch": rows[:6]}
    torch = {}
    tc = calls(f"{d}/syscalls-torch.jsonl")
    reg = tc.get(("ioctl", (REG_OPS << 16) | RM_CONTROL), [0, 0.0])
    for run in ("plain", "preload"):
        for line in open(f"{d}/torch-{run}.jsonl"):
            j = json.loads(line)
            if j.get("type") == "profiler_time":
                torch[run] = {k: round(j[k], 3) for k in
                              ("calls", "start_s", "stop_s", "passes_s", "checkpoint_save_s",
                               "checkpoint_restore_s", "before_s")}
    launches = torch["preload"]["calls"]
    torch["preload"]["reg_ops_calls"] = reg[0]
    torch["preload"]["reg_ops_s"] = round(reg[1], 3)
    torch["preload"]["reg_ops_per_launch"] = round(reg[0] / launches, 1)
    torch["preload"]["reg_ops_ms_each"] = round(reg[1] / reg[0] * 1e3, 3)
    # The register operations per call, over the bench's 41 launches: how many each carries and
    # the type of its first (0 global, 1 context-switched).
    bench = calls(f"{d}/syscalls-bench-41.jsonl")
    ops = {"ops_per_call": {}, "first_op_type": {}}
    for (call, key), (count, seconds) in sorted(bench.items()):
        if call in ("reg_ops_count", "reg_ops_first_type"):
            field = "ops_per_call" if call == "reg_ops_count" else "first_op_type"
            ops[field][str(key)] = {"calls": count, "ms_each": round(seconds / count * 1e3, 3)}
    # One JSON line, after a "torch_ops memory: " prefix since torch_ops_memory.py.
    last = open(f"{d}/torch-memory.json").read().splitlines()[-1]
    torch["memory_at_end"] = json.loads(last.split("torch_ops memory: ")[-1])
    print(json.dumps({
        "schema": "roofkit.validation/1",
        "what": ("where the host time of a profiled launch's replay passes goes: "
                 "roofkit-profiler-cost, one auto range per launch as in roofline-cuda profile, "
                 "for a SASS-only, DRAM-only, HGMMA-FP16-only and the bench's set, with each "
                 "device scheduling flag, then with syscall_time.so preloaded (every ioctl by "
                 "driver command, the sleeps, yields, polls and waits timed), 41 launches less "
                 "1; then the PyTorch script under roofline-cuda profile with the preload"),
        "git_revision": revision,
        "command": ("OUT=... BUILD=build/gpu validation/lab/host-waits.sh; "
                    "validation/lab/host_waits_json.py OUT/host-waits REVISION"),
        "sched_note": ("ms_per_launch of the scheduling runs includes one enable of the range "
                       "profiler over 20 launches (the warm-up call uses a user range, the "
                       "launches auto ranges), the same for every flag"),
        "by_sched_flag": sched,
        "device": (open(f"{d}/device.txt").read().strip().splitlines()
                   if os.path.exists(f"{d}/device.txt") else None),
        "by_set": sets,
        "bench_reg_ops": ops,
        "torch_ops_profile": torch,
    }, indent=1))


if __name__ == "__main__":
    main()

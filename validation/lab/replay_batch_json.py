"""Summarises validation/lab/replay-batch.sh: wall time, profiler time and what ended the batches
for each run, and the launch-by-launch values of launches replayed together against launches
replayed alone, by launch index from the record logs (SASS counts equal; DRAM bytes within 1% or
64 KiB; kernel time), with two runs of the same mode beside them as the reference for what varies
by itself.
Usage: replay_batch_json.py OUT_DIR ROUNDS > replay-batch.json"""
import datetime
import json
import os
import statistics
import sys

out_dir, rounds = sys.argv[1], int(sys.argv[2])


def seconds(name):
    return float(open(f"{out_dir}/{name}.s").read())


def records(name):
    profiled, time = 0, {}
    for line in open(f"{out_dir}/{name}.jsonl"):
        j = json.loads(line)
        profiled += j.get("type") == "launch"
        if j.get("type") == "profiler_time":
            for k, v in j.items():
                if k != "type":
                    time[k] = time.get(k, 0) + v
    return profiled, time


def launches(name):
    """The run's launch records by launch index (every launch of the application has one)."""
    out = {}
    try:
        for line in open(f"{out_dir}/{name}.jsonl"):
            j = json.loads(line)
            if j.get("type") == "launch":
                out[j["index"]] = j
    except OSError:
        pass
    return out


def compare(a_name, b_name):
    a, b = launches(a_name), launches(b_name)
    res = {"a": a_name, "b": b_name, "launches": [len(a), len(b)], "matched": 0,
           "sass_values": 0, "sass_equal": 0, "dram_values": 0, "dram_within": 0,
           "time_ratio_median": None, "outside": []}
    ratios = []
    for index in sorted(set(a) & set(b)):
        la, lb = a[index], b[index]
        if la["name"] != lb["name"]:
            continue
        res["matched"] += 1
        ca, cb = la.get("counters", {}), lb.get("counters", {})
        for key in ca:
            if "sass" in key and key in cb:
                res["sass_values"] += 1
                res["sass_equal"] += ca[key] == cb[key]
        for key in ("dram__bytes_read.sum", "dram__bytes_write.sum"):
            if key in ca and key in cb:
                res["dram_values"] += 1
                d = abs(ca[key] - cb[key])
                ok = d <= max(0.01 * max(ca[key], cb[key]), 65536)
                res["dram_within"] += ok
                if not ok:
                    res["outside"].append({"index": index, "kernel": la["name"][:80],
                                           "counter": key, "a": ca[key], "b": cb[key]})
        ta, tb = la.get("gpu_time_s"), lb.get("gpu_time_s")
        if ta and tb:
            ratios.append(tb / ta)
    if ratios:
        res["time_ratio_median"] = statistics.median(ratios)
        res["time_ratio_range"] = [min(ratios), max(ratios)]
    return res


runs = {}
for name in sorted(f[:-2] for f in os.listdir(out_dir) if f.endswith(".s")):
    r = {"wall_s": seconds(name)}
    if os.path.exists(f"{out_dir}/{name}.jsonl"):
        r["profiled_launches"], r["profiler_time_s"] = records(name)
        err = open(f"{out_dir}/{name}.err").read().splitlines()
        r["exit"] = err[-1] if err else ""
    o = open(f"{out_dir}/{name}.out").read().splitlines()
    r["app_output_last_line"] = o[-1] if o else ""
    runs[name] = r

summary = {"rounds": []}
for i in range(1, rounds + 1):
    p, a, b = (runs.get(f"{m}_{i}", {}) for m in ("plain", "alone", "batch"))
    if not (p and a and b):
        continue
    summary["rounds"].append({
        "plain_s": p["wall_s"], "alone_s": a["wall_s"], "batch_s": b["wall_s"],
        "output_same": p["app_output_last_line"] == a["app_output_last_line"] ==
        b["app_output_last_line"],
        "batches": b["profiler_time_s"].get("batches"),
        "batch_launches": b["profiler_time_s"].get("batch_launches"),
        "profiled": [a.get("profiled_launches"), b.get("profiled_launches")]})
comparisons = [compare("alone_1", "batch_1"), compare("alone_1", "alone_2"),
               compare("batch_1", "batch_2"), compare("alone_2", "batch_2"),
               compare("many_alone", "many_batch")]
summary["comparisons"] = [{k: v for k, v in c.items() if k != "outside"} for c in comparisons]
json.dump({
    "schema": "roofkit.validation/1",
    "date": datetime.date.today().isoformat(),
    "git_revision": os.environ.get("ROOFKIT_GIT_REVISION", ""),
    "what": "roofline-cuda profile with launches replayed together (--replay-batch 32) against "
            "each launch replayed alone (--replay-batch 1), in turn on one machine: every launch "
            "of tests/apps/torch_ops.py, and 100 launches of many_kernels",
    "command": "OUT=out ROUNDS=2 TESTS=1 validation/lab/replay-batch.sh",
    "summary": summary, "runs": runs, "comparisons": comparisons}, sys.stdout, indent=1)

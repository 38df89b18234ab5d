"""Summarises validation/lab/flush-context.sh's output directory as JSON on stdout: wall times,
the profiler's time per phase and every launch's DRAM bytes, by mode."""
import glob
import json
import os
import sys

out = sys.argv[1]
walls = {}
for line in open(os.path.join(out, "wall.txt")):
    mode, rep, s = line.split()
    walls.setdefault(mode, []).append(float(s))


def records(path):
    launches, time = [], {}
    for line in open(path):
        j = json.loads(line)
        if j.get("type") == "launch":
            c = j.get("counters", {})
            launches.append({"index": j["index"], "name": j["name"][:60],
                             "dram_read_mb": round(c.get("dram__bytes_read.sum", 0) / 1e6, 3),
                             "dram_write_mb": round(c.get("dram__bytes_write.sum", 0) / 1e6, 3),
                             "gpu_time_us": round(j.get("gpu_time_s", 0) * 1e6, 2)})
        elif j.get("type") == "profiler_time":
            time = {k: v for k, v in j.items() if k != "type"}
    return launches, time


runs = {}
for path in sorted(glob.glob(os.path.join(out, "*.jsonl"))):
    name = os.path.basename(path)[:-len(".jsonl")]
    launches, time = records(path)
    err = open(path[:-len(".jsonl")] + ".err").read().strip().splitlines()
    runs[name] = {"profiled": len(launches), "profiler_time_s": time, "launches": launches,
                  "stderr_tail": err[-3:]}
print(json.dumps({"wall_s": walls, "runs": runs}, indent=1))

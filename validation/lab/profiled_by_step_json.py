"""profiled-by-step.sh's evidence record: per application, its launches, launches a step (the
run's over its 32 steps) and profiled launches, and how many of those fall in each step.
Usage: profiled_by_step_json.py W REV"""
import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lab_json import main, record  # noqa: E402

STEPS = 32  # 2 warm-up steps, then 30 measured ones


def by_step(records_path, run_path):
    launches = json.load(open(run_path))["profile"]["total_launches"]
    per = launches / STEPS
    steps = {}
    for line in open(records_path):
        r = json.loads(line) if line.strip() else {}
        if "index" in r and "counters" in r:
            steps[int(r["index"] // per)] = steps.get(int(r["index"] // per), 0) + 1
    return {"launches": launches, "launches_per_step": round(per, 1),
            "profiled": sum(steps.values()),
            "profiled_by_step": {str(k): steps[k] for k in sorted(steps)}}


def report(w, rev):
    apps = {os.path.basename(p)[:-len(".jsonl")]: by_step(p, p[:-len("l")])
            for p in sorted(glob.glob(f"{w}/*.jsonl"))}
    return record(
        "In which steps the profiled launches fall, under profile with the defaults: each "
        "application's 2 warm-up steps then 30 measured ones, each profiled launch's index over "
        "the run's launches a step (steps 0-1 the warm-up, 2-31 the measured steps; the last also "
        "holds the checks after the timing)",
        "OUT=dir REV=rev validation/lab/profiled-by-step.sh", rev, applications=apps)


if __name__ == "__main__":
    main(sys.argv, report, "usage: profiled_by_step_json.py W REV")

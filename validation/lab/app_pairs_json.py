"""app-pairs.sh's evidence record: per application, the 50-step wall times alone, profiled and
alone again (when run) and the ratio to the mean of the runs alone, the time of one measured step
(after the warm-up) in each run, and the profiled run's launches, profiled launches, profiler time
and its set-up.
Usage: app_pairs_json.py W REV"""
import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lab_json import lab_device, main, measured_step_ms, record  # noqa: E402


def report(w, rev):
    apps = {}
    for run in sorted(glob.glob(f"{w}/*.profiled.wall")):
        app = os.path.basename(run)[:-len(".profiled.wall")]
        runs = [k for k in ("alone", "profiled", "alone2")
                if os.path.exists(f"{w}/{app}.{k}.wall")]
        wall = {k: round(float(open(f"{w}/{app}.{k}.wall").read()), 2) for k in runs}
        step = {k: measured_step_ms(f"{w}/{app}.{k}.out") for k in runs}
        alone = [wall[k] for k in runs if k != "profiled"]
        p = json.load(open(f"{w}/{app}.json"))["profile"]
        ratio = wall["profiled"] * len(alone) / sum(alone)
        apps[app] = {"wall_s": wall, "ratio": round(ratio, 2),
                     "measured_step_ms": step,
                     **{k: p.get(k) for k in ("total_launches", "profiled_launches",
                                              "profile_overhead_s", "profile_setup_s")}}
    return record(
        "Our three training applications, 50 steps each alone, under profile with the "
        "defaults and alone again (after a 2-step run of each), in turn: wall times and the ratio "
        "to the mean of the runs alone, one measured step's time (after the "
        "warm-up) in each run, launches, profiled launches and profiler time",
        "OUT=dir REV=rev validation/lab/app-pairs.sh", rev,
        device=lab_device(w), applications=apps)


if __name__ == "__main__":
    main(sys.argv, report, "usage: app_pairs_json.py W REV")

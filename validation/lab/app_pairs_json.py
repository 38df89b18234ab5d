"""app-pairs.sh's evidence record: per application, the 50-step wall times alone and profiled
and their ratio, the time of one measured step (after the warm-up) alone and profiled, and the
run's launches, profiled launches, profiler time and its set-up.
Usage: app_pairs_json.py W REV"""
import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lab_json import main, measured_step_ms, record  # noqa: E402


def report(w, rev):
    apps = {}
    for run in sorted(glob.glob(f"{w}/*.profiled.wall")):
        app = os.path.basename(run)[:-len(".profiled.wall")]
        wall = {k: round(float(open(f"{w}/{app}.{k}.wall").read()), 2)
                for k in ("alone", "profiled")}
        step = {k: measured_step_ms(f"{w}/{app}.{k}.out") for k in ("alone", "profiled")}
        p = json.load(open(f"{w}/{app}.json"))["profile"]
        apps[app] = {"wall_s": wall, "ratio": round(wall["profiled"] / wall["alone"], 2),
                     "measured_step_ms": step,
                     **{k: p.get(k) for k in ("total_launches", "profiled_launches",
                                              "profile_overhead_s", "profile_setup_s")}}
    return record(
        "Our three training applications, 50 steps each alone and under profile with the "
        "defaults, in turn: wall times and their ratio, one measured step's time (after the "
        "warm-up) alone and profiled, launches, profiled launches and profiler time",
        "OUT=dir REV=rev validation/lab/app-pairs.sh", rev,
        device=open(f"{w}/device.txt").read().strip(), applications=apps)


if __name__ == "__main__":
    main(sys.argv, report, "usage: app_pairs_json.py W REV")

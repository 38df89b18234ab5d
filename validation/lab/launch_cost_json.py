"""launch-cost.sh's evidence record: per variant (alone, the defaults, each cut), the MLP-Mixer
step's time per measured step and the wall time of 100,000 tiny launches, in each round, and the
profiler's cost per launch over the application alone.
Usage: launch_cost_json.py W REV"""
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lab_json import main, measured_step_ms, record  # noqa: E402

STEP_LAUNCHES = 860  # the MLP-Mixer step's launches a step (42,986 in 50 steps)


def report(w, rev):
    variants = {}
    for wall in sorted(glob.glob(f"{w}/step.*.wall")):
        name, rnd = os.path.basename(wall)[len("step."):-len(".wall")].rsplit(".", 1)
        v = variants.setdefault(name, {"step_ms": [], "long_100k_s": []})
        v["step_ms"].append(measured_step_ms(f"{w}/step.{name}.{rnd}.out"))
        v["long_100k_s"].append(round(float(open(f"{w}/long.{name}.{rnd}.wall").read()), 3))
    alone = variants.get("alone")
    for v in variants.values():
        if alone and None not in v["step_ms"] + alone["step_ms"]:
            extra = min(v["step_ms"]) - min(alone["step_ms"])
            v["step_us_per_launch_over_alone"] = round(1e3 * extra / STEP_LAUNCHES, 2)
        if alone:
            extra = min(v["long_100k_s"]) - min(alone["long_100k_s"])
            v["long_us_per_launch_over_alone"] = round(1e6 * extra / 100000, 2)
    return record(
        "The profiler's cost on every launch in a training loop's steady state: the MLP-Mixer "
        "step's measured steps (after its warm-up, every shape measured) and 100,000 tiny "
        "launches, alone, under profile with the defaults, and with one part of the per-launch "
        "work cut at a time (entry: the launch callback returns at once; timer: no events; "
        "spans: kernel activity records read but not matched; activity off); two rounds, the "
        "better of each taken",
        "patch -p1 < validation/lab/launch-cost.patch; OUT=dir REV=rev "
        "validation/lab/launch-cost.sh", rev,
        device=open(f"{w}/device.txt").read().strip(), variants=variants)


if __name__ == "__main__":
    main(sys.argv, report, "usage: launch_cost_json.py W REV")

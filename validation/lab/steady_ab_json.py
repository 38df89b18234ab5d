"""steady-ab.sh's evidence record: per variant (alone, O, N) and round, the MLP-Mixer step's time
per measured step and the wall time of 100,000 tiny launches; their medians, and the profiler's
cost per launch over the application alone (medians).
Usage: steady_ab_json.py W REV"""
import glob
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lab_json import main, measured_step_ms, record  # noqa: E402
from launch_cost_json import STEP_LAUNCHES  # noqa: E402


def report(w, rev):
    variants = {}
    for wall in sorted(glob.glob(f"{w}/step.*.wall")):
        name, rnd = os.path.basename(wall)[len("step."):-len(".wall")].rsplit(".", 1)
        v = variants.setdefault(name, {"step_ms": [], "long_100k_s": []})
        v["step_ms"].append(measured_step_ms(f"{w}/step.{name}.{rnd}.out"))
        v["long_100k_s"].append(round(float(open(f"{w}/long.{name}.{rnd}.wall").read()), 3))
    for v in variants.values():
        steps = [s for s in v["step_ms"] if s is not None]
        v["step_ms_median"] = round(statistics.median(steps), 3) if steps else None
        v["long_100k_s_median"] = round(statistics.median(v["long_100k_s"]), 3)
    alone = variants.get("alone")
    for v in variants.values():
        if alone and v["step_ms_median"] is not None and alone["step_ms_median"] is not None:
            extra = v["step_ms_median"] - alone["step_ms_median"]
            v["step_us_per_launch_over_alone"] = round(1e3 * extra / STEP_LAUNCHES, 2)
        if alone:
            extra = v["long_100k_s_median"] - alone["long_100k_s_median"]
            v["long_us_per_launch_over_alone"] = round(1e6 * extra / 100000, 2)
    return record(
        "A/B of the profiler's cost on every launch once each shape is measured: the MLP-Mixer "
        "step (30 steps; a measured step after its warm-up) and 100,000 tiny launches, alone, "
        "under O (this tree with PATCH reversed) and under N (this tree), with the defaults, in "
        "turn within each round; medians over the rounds",
        "PATCH=file OUT=dir REV=rev validation/lab/steady-ab.sh", rev,
        device=open(f"{w}/device.txt").read().strip(), variants=variants)


if __name__ == "__main__":
    main(sys.argv, report, "usage: steady_ab_json.py W REV")

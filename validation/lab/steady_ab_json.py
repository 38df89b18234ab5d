"""steady-ab.sh's evidence record: per variant (alone, O, N) and round, the MLP-Mixer step's time
per measured step and the wall time of 100,000 tiny launches; their medians, and the profiler's
cost per launch over the application alone (medians).
Usage: steady_ab_json.py W REV"""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lab_json import lab_device, main, over_alone, record, step_and_long_walls  # noqa: E402
from launch_cost_json import STEP_LAUNCHES  # noqa: E402


def report(w, rev):
    variants = step_and_long_walls(w)
    for v in variants.values():
        steps = [s for s in v["step_ms"] if s is not None]
        v["step_ms_median"] = round(statistics.median(steps), 3) if steps else None
        v["long_100k_s_median"] = round(statistics.median(v["long_100k_s"]), 3)
    over_alone(variants, STEP_LAUNCHES, statistics.median)
    return record(
        "A/B of the profiler's cost on every launch once each shape is measured: the MLP-Mixer "
        "step (30 steps; a measured step after its warm-up) and 100,000 tiny launches, alone, "
        "under O (this tree with PATCH reversed) and under N (this tree), with the defaults, in "
        "turn within each round; medians over the rounds",
        "PATCH=file OUT=dir REV=rev validation/lab/steady-ab.sh", rev,
        device=lab_device(w), variants=variants)


if __name__ == "__main__":
    main(sys.argv, report, "usage: steady_ab_json.py W REV")
